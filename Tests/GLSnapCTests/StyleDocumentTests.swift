@testable import GLSnapC
import GLSnapStyle
import XCTest

final class StyleDocumentTests: XCTestCase {
    let style = #"{"version":8,"sources":{"s":{"type":"geojson","data":{"type":"FeatureCollection","features":[]}}},"layers":[{"id":"bg","type":"background"},{"id":"roads","type":"line","source":"s","paint":{"line-width":2}}]}"#

    func testEditsChangeTheNamedLayer() throws {
        var doc = try StyleDocument(text: style, base: nil)
        try doc.setFilter(layer: "roads", filter: try JSON.parse(#"["==","kind","major"]"#))
        try doc.setProperty(layer: "roads", group: "paint", name: "line-color", value: .string("#f00"))
        try doc.setVisibility(layer: "bg", visible: false)
        XCTAssertEqual(doc.layer("roads")?["filter"], try JSON.parse(#"["==","kind","major"]"#))
        XCTAssertEqual(doc.layer("roads")?["paint"]?["line-color"], .string("#f00"))
        XCTAssertEqual(doc.layer("roads")?["paint"]?["line-width"], .number(2))
        XCTAssertEqual(doc.layer("bg")?["layout"]?["visibility"], .string("none"))
        try doc.setFilter(layer: "roads", filter: nil)
        XCTAssertNil(doc.layer("roads")?["filter"])
        // The text reads back as the same document.
        XCTAssertEqual(try StyleDocument(text: doc.text, base: nil).root, doc.root)
    }

    func testUnknownLayerIsNamedAndLeavesTheStyle() throws {
        var doc = try StyleDocument(text: style, base: nil)
        let before = doc.root
        XCTAssertThrowsError(try doc.setProperty(layer: "rivers", group: "paint", name: "line-color", value: .string("red"))) { e in
            let c = e as? CallError
            XCTAssertEqual(c?.status, .notFound)
            XCTAssertEqual(c?.message, #"no layer "rivers" in the style (layers: "bg", "roads")"#)
        }
        XCTAssertEqual(doc.root, before)
    }

    func testAddAndRemoveLayersAndSources() throws {
        var doc = try StyleDocument(text: style, base: nil)
        try doc.addSource(id: "p", source: try JSON.parse(#"{"type":"geojson","data":{"type":"Point","coordinates":[0,0]}}"#))
        XCTAssertThrowsError(try doc.addSource(id: "p", source: .object(["type": .string("geojson")])))
        XCTAssertThrowsError(try doc.addSource(id: "q", source: .number(1)))
        try doc.addLayer(try JSON.parse(#"{"id":"dots","type":"circle","source":"p"}"#), before: "roads")
        XCTAssertEqual(doc.layerIDs, ["bg", "dots", "roads"])
        XCTAssertThrowsError(try doc.addLayer(try JSON.parse(#"{"id":"x","type":"circle","source":"nope"}"#), before: nil)) { e in
            XCTAssertEqual((e as? CallError)?.status, .notFound)
        }
        XCTAssertThrowsError(try doc.addLayer(try JSON.parse(#"{"id":"dots","type":"circle","source":"p"}"#), before: nil))
        try doc.removeLayer("dots")
        XCTAssertEqual(doc.layerIDs, ["bg", "roads"])
        XCTAssertEqual(doc.sourceIDs, ["p", "s"])
        XCTAssertThrowsError(try doc.removeLayer("dots"))
    }

    func testJSONTextWritesNumbersAndEscapes() {
        XCTAssertEqual(JSON.array([.number(3), .number(0.5), .number(-1e-7), .string("a\"b\n"), .null, .bool(true)]).text,
                       #"[3,0.5,-1e-07,"a\"b\n",null,true]"#)
    }

    func testBadStyleTextIsAnError() {
        XCTAssertThrowsError(try StyleDocument(text: "[1]", base: nil)) { XCTAssertEqual(($0 as? CallError)?.status, .style) }
        XCTAssertThrowsError(try StyleDocument(text: "{", base: nil)) { XCTAssertEqual(($0 as? CallError)?.status, .style) }
    }
}
