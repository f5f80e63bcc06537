import XCTest
@testable import GLSnapStyle

/// Style+Edits: runtime edits of the style model keep the document and the compiled layers
/// together, check values with the reference validator's rules, and leave the style unchanged
/// when they throw.
final class StyleEditTests: XCTestCase {
    private func style() throws -> Style {
        try Style(bytes: Array(##"""
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
         "layers": [{"id": "bg", "type": "background"},
                    {"id": "a", "type": "line", "source": "s", "paint": {"line-width": 2}},
                    {"id": "b", "ref": "a", "paint": {"line-color": "red"}}]}
        """##.utf8))
    }

    func testEditsChangeDocumentAndLayersTogether() throws {
        var s = try style()
        try s.setPaintProperty("a", "line-width", .number(5))
        XCTAssertEqual(s.layerDocument("a")?["paint"]?["line-width"], .number(5))
        XCTAssertEqual(s.layers[1].paint("line-width").evaluateNumber(EvaluationContext(zoom: 0)), 5)
        // A ref layer is resolved when the document is edited: it keeps its parent's type and source.
        try s.setLayoutProperty("b", "line-cap", .string("round"))
        XCTAssertEqual(s.layerDocument("b")?["type"], .string("line"))
        XCTAssertNil(s.layerDocument("b")?["ref"])
        try s.setLayoutProperty("b", "visibility", .string("none"))
        XCTAssertFalse(s.layers[2].visible)
        try s.moveLayer("b", before: "bg")
        XCTAssertEqual(s.layers.map(\.id), ["b", "bg", "a"])
        XCTAssertEqual(s.layerDocuments.compactMap { $0["id"]?.stringValue }, ["b", "bg", "a"])
        try s.setPaintProperty("a", "line-width", nil)
        XCTAssertNil(s.layerDocument("a")?["paint"]?["line-width"])
    }

    func testRefusedEditsLeaveTheStyle() throws {
        var s = try style()
        let before = s.json
        func refused(_ words: String, notFound: Bool = false, _ edit: (inout Style) throws -> Void, line: UInt = #line) {
            XCTAssertThrowsError(try edit(&s), line: line) { e in
                let error = e as? StyleEditError
                XCTAssertNotNil(error, "\(e)", line: line)
                XCTAssertEqual(error?.notFound, notFound, "\(e)", line: line)
                XCTAssertTrue("\(e)".contains(words), "\(e) lacks \(words)", line: line)
            }
            XCTAssertEqual(s.json, before, line: line)
        }
        refused("layers.a.paint.line-width: number expected, string found") { try $0.setPaintProperty("a", "line-width", .string("wide")) }
        refused("unknown property \"line-colour\"") { try $0.setPaintProperty("a", "line-colour", .string("red")) }
        refused("layers.a.layout.line-cap") { try $0.setLayoutProperty("a", "line-cap", .string("pointy")) }
        refused("'zz'", notFound: true) { try $0.setFilter("zz", nil) }
        refused("cannot be removed while layer \"a\"") { try $0.removeSource("s") }
        refused("sources.t") { try $0.addSource("t", .object(["type": .string("geojson"), "cluster": .string("yes")])) }
        refused("\"sprite\" cannot be set at run time") { try $0.setRootMember("sprite", .string("x")) }
        refused("intensity") { try $0.setRootMember("light", .object(["intensity": .string("bright")])) }
        refused("\"x\"", notFound: true) { try $0.addLayer(.object(["id": .string("y"), "type": .string("fill"), "source": .string("x")])) }
    }
}
