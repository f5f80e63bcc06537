import Foundation
import GLSnap
import GLSnapGL
import GLSnapImage
import XCTest
@testable import GLSnapServer

/// The Mapbox Static Images API's style edits on static maps: `addlayer` + `before_layer`,
/// `setfilter` + `layer_id`, `geojson`, labelled pins, the `attribution` switch, POST bodies,
/// limits, and ETags that cover the edits. Each applies to its request only.
final class StaticStyleEditTests: XCTestCase {
    private var folder = ""
    private var service: MapService!
    private let path = "/styles/s/static/0,0,0/64x64.png"

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "glsnap-static-edits-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A blue square around 0,0 (kind a) and a green one far east (kind b), on white.
        let style = ##"""
        {"version": 8, "sources": {"shapes": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"kind": "a"}, "geometry": {"type": "Polygon", "coordinates": [[[-20, -20], [20, -20], [20, 20], [-20, 20], [-20, -20]]]}},
          {"type": "Feature", "properties": {"kind": "b"}, "geometry": {"type": "Polygon", "coordinates": [[[100, -20], [140, -20], [140, 20], [100, 20], [100, -20]]]}}]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "squares", "type": "fill", "source": "shapes", "paint": {"fill-color": "#0000ff"}}]}
        """##
        try style.write(toFile: folder + "/style.json", atomically: true, encoding: .utf8)
        let paths = ServerConfig.Paths(root: folder, styles: folder, fonts: folder, sprites: folder, mbtiles: folder, icons: folder)
        var config = ServerConfig(paths: paths, styles: [ServerConfig.Style(id: "s", path: folder + "/style.json")])
        config.workers = 1
        config.maxAddedLayers = 4
        config.maxRequestBody = 4096
        service = try MapService(config: config)
    }

    override func tearDownWithError() throws {
        service = nil
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func get(_ query: [(String, String)], path: String? = nil, ifNoneMatch: String? = nil) -> HTTPResponse {
        service.handle(method: "GET", path: path ?? self.path, query: query.map { (key: $0.0, value: $0.1) }, ifNoneMatch: ifNoneMatch)
    }

    private func image(_ r: HTTPResponse, file: StaticString = #filePath, line: UInt = #line) throws -> RGBAImage {
        XCTAssertEqual(r.status, 200, String(decoding: r.body, as: UTF8.self), file: file, line: line)
        return try PNGDecoder().decode(r.body)
    }

    private func center(_ image: RGBAImage) -> [UInt8] {
        let i = (image.height / 2 * image.width + image.width / 2) * 4
        return Array(image.pixels[i..<i + 3])
    }

    private func message(_ r: HTTPResponse) -> String { String(decoding: r.body, as: UTF8.self) }

    func testAddLayerAndSetFilterApplyToTheirRequestOnly() throws {
        XCTAssertEqual(center(try image(get([]))), [0, 0, 255])
        let red = ##"{"id": "red", "type": "fill", "source": "shapes", "paint": {"fill-color": "#ff0000"}}"##
        XCTAssertEqual(center(try image(get([("addlayer", red)]))), [255, 0, 0], "added on top")
        XCTAssertEqual(center(try image(get([("addlayer", red), ("before_layer", "squares")]))), [0, 0, 255], "added below the squares")
        XCTAssertEqual(center(try image(get([("setfilter", ##"["==", ["get", "kind"], "b"]"##), ("layer_id", "squares")]))), [255, 255, 255],
                       "the filter leaves out the square at 0,0")
        XCTAssertEqual(center(try image(get([]))), [0, 0, 255], "the edits did not change the served style")
        // setfilter may name the added layer.
        XCTAssertEqual(center(try image(get([("addlayer", red), ("setfilter", ##"["==", "kind", "b"]"##), ("layer_id", "red")]))), [0, 0, 255])
    }

    func testRepeatedEditsReuseTheirLayout() throws {
        let red = ##"{"id": "red", "type": "fill", "source": "shapes", "paint": {"fill-color": "#ff0000"}}"##
        let snapshotter = try XCTUnwrap(service.styles["s"]).snapshotter
        XCTAssertEqual(center(try image(get([("addlayer", red)]))), [255, 0, 0])
        let once = snapshotter.workCounts
        XCTAssertEqual(center(try image(get([("addlayer", red)]))), [255, 0, 0])
        XCTAssertEqual(snapshotter.workCounts, once, "the same edits again: nothing decoded or tessellated")
        XCTAssertEqual(center(try image(get([("addlayer", red.replacingOccurrences(of: "ff0000", with: "00ff00"))]))), [0, 255, 0])
    }

    func testGeoJSONOverlaysAndPins() throws {
        let square = ##"{"type": "Feature", "properties": {"fill": "#00ff00", "fill-opacity": 1, "stroke-width": 0}, "geometry": {"type": "Polygon", "coordinates": [[[-5, -5], [5, -5], [5, 5], [-5, 5], [-5, -5]]]}}"##
        XCTAssertEqual(center(try image(get([("geojson", square)]))), [0, 255, 0])
        // The same in Mapbox's overlay segment of the path.
        let overlayPath = "/styles/s/static/geojson(\(square))/0,0,0/64x64.png"
        XCTAssertEqual(center(try image(get([], path: overlayPath))), [0, 255, 0])
        // A large red pin with a label: its head sits above the location.
        let pinned = try image(get([], path: "/styles/s/static/pin-l-a+f00(0,0)/0,0,0/64x64.png"))
        let head = ((pinned.height / 2 - 16) * pinned.width + pinned.width / 2 + 6) * 4
        XCTAssertEqual(Array(pinned.pixels[head..<head + 3]), [255, 0, 0], "the pin's head")
        XCTAssertEqual(center(try image(get([], path: "/styles/s/static/pin-s(0,0),pin-s+00f(10,10)/0,0,0/64x64.png"))).count, 3)
    }

    func testBadEditsAnswer400NamingTheProblem() {
        let cases: [([(String, String)], String)] = [
            ([("addlayer", "{not json")], "addlayer is not JSON"),
            ([("addlayer", ##"{"id": "x", "type": "fill", "source": "nope"}"##)], "nope"),
            ([("addlayer", ##"{"id": "squares", "type": "background"}"##)], "already exists"),
            ([("addlayer", ##"{"id": "x", "type": "fill", "source": "shapes", "paint": {"fill-color": 3}}"##)], "layers.x.paint.fill-color"),
            ([("addlayer", ##"{"id": "x", "type": "background"}"##), ("before_layer", "zz")], "zz"),
            ([("before_layer", "bg")], "before_layer needs an addlayer"),
            ([("setfilter", ##"["==", "kind", "a"]"##)], "setfilter needs layer_id"),
            ([("layer_id", "squares")], "layer_id needs setfilter"),
            ([("setfilter", ##"["==", "kind", "a"]"##), ("layer_id", "ghost")], "ghost"),
            ([("setfilter", ##"["bogus-op", 1]"##), ("layer_id", "squares")], "layers.squares.filter"),
            ([("attribution", "maybe")], "attribution must be true or false"),
            ([("logo", "2")], "logo must be true or false"),
            ((0..<5).map { _ in ("addlayer", ##"{"id": "x", "type": "background"}"##) }, "over the limit of 4 (maxAddedLayers"),
            ([("geojson", "{}"), ("geojson", "{}")], "maxAddedLayers"),
        ]
        for (query, words) in cases {
            let r = get(query)
            XCTAssertEqual(r.status, 400, "\(query): \(message(r))")
            XCTAssertTrue(message(r).contains(words), "\(query): \(message(r)) lacks \(words)")
        }
        for (overlay, words) in [("pin-m-a+f00(0,0)", "unknown overlay"), ("pin-s-abc(0,0)", "label"), ("pin-s+ggg(0,0)", "color"),
                                 ("pin-s(200,0)", "-180..180"), ("pin-s(0,0", "parentheses"), ("geojson(nope)", "geojson overlay is not JSON"), ("geojson({)", "parentheses")] {
            let r = get([], path: "/styles/s/static/\(overlay)/0,0,0/64x64.png")
            XCTAssertEqual(r.status, 400, "\(overlay): \(message(r))")
            XCTAssertTrue(message(r).contains(words), "\(overlay): \(message(r)) lacks \(words)")
        }
    }

    /// A refused edit answers 400 with its problems and their JSON paths, for clients to point at.
    func testRefusedEditListsItsProblemsWithPaths() throws {
        let r = get([("addlayer", ##"{"id": "x", "type": "fill", "source": "shapes", "paint": {"fill-color": 3, "fill-opacity": "half"}}"##)])
        XCTAssertEqual(r.status, 400, message(r))
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any], message(r))
        XCTAssertTrue((body["error"] as? String)?.hasPrefix("style edit refused: layers.x.paint.fill-color") == true, message(r))
        let problems = try XCTUnwrap(body["problems"] as? [[String: String]], message(r))
        XCTAssertEqual(Set(problems.compactMap { $0["path"] }), ["layers.x.paint.fill-color", "layers.x.paint.fill-opacity"], message(r))
        XCTAssertTrue(problems.allSatisfy { !($0["message"] ?? "").isEmpty }, message(r))
        // Errors that are not about the style have no list.
        let plain = get([("before_layer", "bg")])
        XCTAssertEqual(plain.status, 400)
        XCTAssertNil((try JSONSerialization.jsonObject(with: Data(plain.body)) as? [String: Any])?["problems"], message(plain))
    }

    /// The library's errors answer by their case: a bad option is the client's (400), a time limit 504, the rest 500.
    func testLibraryErrorsAnswerByTheirCase() {
        XCTAssertEqual(ServerError(.invalidOptions("zoom 30 must be within -2...24"), requestTimeout: 5),
                       .badRequest("invalid snapshot options: zoom 30 must be within -2...24"))
        XCTAssertEqual(ServerError(.timedOut(seconds: 1), requestTimeout: 5), .timedOut(seconds: 5))
        XCTAssertEqual(ServerError(.gl(.missingFunction("glFoo")), requestTimeout: 5).status, 500)
        XCTAssertEqual(ServerError(.style(source: "s", problems: []), requestTimeout: 5).status, 500, "the served style is the server's")
    }

    func testPOSTBodyEditsAndBodyLimit() throws {
        let body = ##"{"addlayer": {"id": "red", "type": "fill", "source": "shapes", "paint": {"fill-color": "#ff0000"}}, "before_layer": "bg"}"##
        var r = service.handle(method: "POST", path: path, body: .bytes(Array(body.utf8)))
        XCTAssertEqual(center(try image(r)), [0, 0, 255], "added below the background: hidden")
        let filter = ##"{"setfilter": ["==", ["get", "kind"], "b"], "layer_id": "squares", "geojson": {"type": "Point", "coordinates": [0, 0]}}"##
        r = service.handle(method: "POST", path: path, body: .bytes(Array(filter.utf8)))
        XCTAssertEqual(center(try image(r)), [0x7e, 0x7e, 0x7e], "the filter hides the square; the point's default marker color shows")
        let bad = ##"{"addlayer": {"id": "x", "type": "circle", "source": "shapes", "paint": {"circle-radius": "big"}}}"##
        r = service.handle(method: "POST", path: path, body: .bytes(Array(bad.utf8)))
        XCTAssertEqual(r.status, 400)
        XCTAssertTrue(message(r).contains("circle-radius"), message(r))
        let big = "{\"geojson\": \"" + String(repeating: " ", count: 5000) + "\"}"
        r = service.handle(method: "POST", path: path, body: .bytes(Array(big.utf8)))
        XCTAssertEqual(r.status, 413)
        XCTAssertEqual(service.handle(method: "POST", path: path, body: .tooLarge).status, 413)
    }

    func testETagsCoverEditsAndAttributionSwitch() throws {
        let red = ##"{"id": "red", "type": "fill", "source": "shapes", "paint": {"fill-color": "#ff0000"}}"##
        let plain = get([]), edited = get([("addlayer", red)])
        let plainTag = plain.headers.first { $0.0 == "ETag" }?.1, editedTag = edited.headers.first { $0.0 == "ETag" }?.1
        XCTAssertNotNil(plainTag)
        XCTAssertNotEqual(plainTag, editedTag, "an edit changes the ETag")
        XCTAssertEqual(get([("addlayer", red)], ifNoneMatch: editedTag).status, 304)
        XCTAssertEqual(get([], ifNoneMatch: editedTag).status, 200, "the plain map is not the edited one")
        let body = "{\"addlayer\": \(red)}"
        let posted = service.handle(method: "POST", path: path, body: .bytes(Array(body.utf8)))
        let postedTag = posted.headers.first { $0.0 == "ETag" }?.1
        XCTAssertNotEqual(postedTag, plainTag, "a POST body's edit is in the ETag")
        XCTAssertEqual(service.handle(method: "POST", path: path, ifNoneMatch: postedTag, body: .bytes(Array(body.utf8))).status, 304)
        let other = "{\"addlayer\": \(red.replacingOccurrences(of: "ff0000", with: "00ff00"))}"
        XCTAssertEqual(service.handle(method: "POST", path: path, ifNoneMatch: postedTag, body: .bytes(Array(other.utf8))).status, 200)
        XCTAssertEqual(get([("attribution", "false")]).status, 200)
        XCTAssertEqual(get([("logo", "false")]).status, 200)
    }
}
