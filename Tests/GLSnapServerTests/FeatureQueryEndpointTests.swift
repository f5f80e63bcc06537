import Foundation
import GLSnap
import GLSnapStyle
import XCTest
import GLSnapTestSupport
@testable import GLSnapServer

/// `/styles/{id}/query/{view}/{size}`: the features behind a pixel or in a box of a static map,
/// as `glsnap query` prints them; checked arguments, limits, ETags and the shared render queue.
final class FeatureQueryEndpointTests: XCTestCase {
    private var folder = ""
    private var service: MapService!
    /// A 256x256 view of 60°E 30°N at zoom 1: a square 40-80°E, 10-50°N (kind a) around the center
    /// (~57 px each side of it), and a dot (radius 8) at 100°E 30°N, ~114 px right of the center,
    /// drawn above the square; both in one tile (1/1/0), so each is found once.
    private let path = "/styles/s/query/60,30,1/256x256"

    private let style = ##"""
    {"version": 8, "sources": {
       "shapes": {"type": "geojson", "data": {"type": "Feature", "properties": {"kind": "a"},
         "geometry": {"type": "Polygon", "coordinates": [[[40, 10], [80, 10], [80, 50], [40, 50], [40, 10]]]}}},
       "dots": {"type": "geojson", "data": {"type": "Feature", "properties": {"kind": "b"}, "geometry": {"type": "Point", "coordinates": [100, 30]}}}},
     "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                {"id": "squares", "type": "fill", "source": "shapes", "paint": {"fill-color": "#0000ff"}},
                {"id": "dots", "type": "circle", "source": "dots", "paint": {"circle-radius": 8}}]}
    """##

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "glsnap-query-endpoint-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try style.write(toFile: folder + "/style.json", atomically: true, encoding: .utf8)
        service = try MapService(config: config())
    }

    override func tearDownWithError() throws {
        service = nil
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func config() -> ServerConfig {
        let paths = ServerConfig.Paths(root: folder, styles: folder, fonts: folder, sprites: folder, mbtiles: folder, icons: folder)
        var config = ServerConfig(paths: paths, styles: [ServerConfig.Style(id: "s", path: folder + "/style.json")])
        config.workers = 1
        config.maxSize = 1024
        return config
    }

    private func get(_ query: [(String, String)], path: String? = nil, ifNoneMatch: String? = nil) -> HTTPResponse {
        service.handle(method: "GET", path: path ?? self.path, query: query.map { (key: $0.0, value: $0.1) }, ifNoneMatch: ifNoneMatch)
    }

    private func text(_ r: HTTPResponse) -> String { String(decoding: r.body, as: UTF8.self) }

    private func header(_ r: HTTPResponse, _ name: String) -> String? { r.headers.first { $0.0 == name }?.1 }

    /// The features of a 200 answer, each with its layer and `kind`.
    private func found(_ r: HTTPResponse, file: StaticString = #filePath, line: UInt = #line) throws -> [(layer: String?, kind: String?)] {
        XCTAssertEqual(r.status, 200, text(r), file: file, line: line)
        XCTAssertEqual(header(r, "Content-Type"), "application/geo+json", file: file, line: line)
        let json = try JSON.parse(text(r))
        XCTAssertEqual(json["type"]?.stringValue, "FeatureCollection", file: file, line: line)
        return (json["features"]?.arrayValue ?? []).map { ($0["layer"]?.stringValue, $0["properties"]?["kind"]?.stringValue) }
    }

    private func assertBadRequest(_ r: HTTPResponse, _ words: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, 400, text(r), file: file, line: line)
        XCTAssertTrue(text(r).contains(words), "'\(text(r))' should name '\(words)'", file: file, line: line)
    }

    func testPointAndBoxFindWhatIsDrawnTopmostFirst() throws {
        let center = try found(get([("point", "128,128")]))
        XCTAssertEqual(center.map(\.layer), ["squares"])
        XCTAssertEqual(center.map(\.kind), ["a"])
        XCTAssertEqual(try found(get([("point", "242,128")])).map(\.layer), ["dots"], "the dot lies outside the square")
        XCTAssertEqual(try found(get([("point", "10,10")])).count, 0, "nothing but the background in the corner")
        let both = try found(get([("box", "100,100,250,140")]))
        XCTAssertEqual(both.map(\.layer), ["dots", "squares"], "topmost first")
        XCTAssertEqual(try found(get([("box", "250,140,100,100")])).map(\.layer), ["dots", "squares"], "corners in either order")
        XCTAssertEqual(try found(get([("box", "100,100,250,140"), ("layers", "squares")])).map(\.layer), ["squares"])
        XCTAssertEqual(try found(get([("box", "100,100,250,140"), ("filter", ##"["==", ["get", "kind"], "b"]"##)])).map(\.layer), ["dots"])
        XCTAssertEqual(try found(get([("point", "128,128"), ("filter", ##"["==", "kind", "b"]"##)])).count, 0)
        // The bounds form of the view, as static maps take it.
        XCTAssertEqual(try found(get([("point", "128,128")], path: "/styles/s/query/30,0,90,60/256x256")).map(\.layer), ["squares"])
    }

    func testPixelsOfAScaledImageArePoints() throws {
        // @2x: the same map, its pixels twice the points.
        XCTAssertEqual(try found(get([("point", "484,256")], path: path + "@2x")).map(\.layer), ["dots"])
        XCTAssertEqual(try found(get([("point", "256,256")], path: path + "@2x")).map(\.layer), ["squares"])
        XCTAssertEqual(try found(get([("point", "242,128")], path: path + "@2x")).map(\.layer), ["squares"],
                       "242,128 of the @2x image is 121,64 in points: in the square, not on the dot")
    }

    /// The answer is what the library's query gives for that snapshot: `glsnap query`'s GeoJSON.
    func testAnswerIsTheLibrarysFeatureCollection() throws {
        let r = get([("box", "100,100,250,140")])
        XCTAssertEqual(r.status, 200, text(r))
        let snapshotter = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 256)))
        defer { snapshotter.close() }
        try snapshotter.setStyle(path: folder + "/style.json")
        let shot = try snapshotter.snapshot(camera: CameraOptions(center: Coordinate(latitude: 30, longitude: 60), zoom: 1, bearing: 0, pitch: 0))
        let features = try shot.queryRenderedFeatures(in: (Point(x: 100, y: 100), Point(x: 250, y: 140)))
        XCTAssertEqual(features.count, 2)
        XCTAssertEqual(try JSON.parse(text(r)), QueriedFeature.featureCollection(features))
    }

    func testBadQueriesAnswer400NamingTheProblem() {
        assertBadRequest(get([]), "give one of point=X,Y or box=X1,Y1,X2,Y2")
        assertBadRequest(get([("point", "1,1"), ("box", "0,0,2,2")]), "give one of point")
        assertBadRequest(get([("point", "1")]), "point must be X,Y")
        assertBadRequest(get([("point", "1,nan")]), "point must be X,Y")
        assertBadRequest(get([("box", "0,0,1")]), "box must be X1,Y1,X2,Y2")
        assertBadRequest(get([("point", "300,10")]), "point pixel 300,10 is outside the 256x256 image")
        XCTAssertEqual(get([("point", "300,10")], path: path + "@2x").status, 200, "inside the 512x512 pixels of @2x")
        assertBadRequest(get([("box", "0,0,10,-1")]), "box pixel 10,-1 is outside")
        assertBadRequest(get([("point", "1,1"), ("layers", "squares,nope")]), "style 's' has no layer 'nope'")
        assertBadRequest(get([("point", "1,1"), ("layers", "squares,")]), "one is empty")
        assertBadRequest(get([("point", "1,1"), ("filter", "[\"==\", \"kind\"")]), "filter is not JSON")
        assertBadRequest(get([("point", "1,1"), ("filter", "[\"frobnicate\", 1]")]), "is not a valid filter expression")
        assertBadRequest(get([("point", "1,1")], path: "/styles/s/query/auto/256x256"), "auto fits overlays")
        assertBadRequest(get([("point", "1,1")], path: "/styles/s/query/0,0,1/2000x10"), "exceeds maxSize 1024")
        assertBadRequest(get([("point", "1,1")], path: "/styles/s/query/0,0,1/256x256@1x"), "@1x is not a scale")
        assertBadRequest(get([("point", "1,1")], path: "/styles/s/query/0,0,99/256x256"), "zoom 99.0 is outside 0-22")
        XCTAssertEqual(get([("point", "1,1")], path: "/styles/nope/query/0,0,1/256x256").status, 404)
    }

    func testAnswersAreBoundedByMaxQueryFeatures() throws {
        var c = config()
        c.maxQueryFeatures = 1
        service = try MapService(config: c)
        XCTAssertEqual(try found(get([("point", "128,128")])).count, 1)
        assertBadRequest(get([("box", "100,100,250,140")]), "the query found 2 features, more than maxQueryFeatures (1)")
    }

    func testETagsAndNotModified() throws {
        let first = get([("point", "128,128"), ("layers", "squares")])
        let tag = try XCTUnwrap(header(first, "ETag"))
        XCTAssertEqual(header(get([("layers", "squares"), ("point", "128,128")]), "ETag"), tag, "argument order does not matter")
        XCTAssertNotEqual(header(get([("point", "129,128"), ("layers", "squares")]), "ETag"), tag, "another pixel, another answer")
        let again = get([("point", "128,128"), ("layers", "squares")], ifNoneMatch: tag)
        XCTAssertEqual(again.status, 304)
        XCTAssertTrue(again.body.isEmpty)
    }

    func testQueriesShareTheRenderQueue() throws {
        var c = config()
        c.queue = 0
        service = try MapService(config: c)
        // The one worker taken (as by a static map rendering now), no room to wait: 503.
        XCTAssertEqual(service.queue.acquire(deadline: Date()), .admitted)
        XCTAssertEqual(get([("point", "128,128")]).status, 503)
        service.queue.release()
        XCTAssertEqual(try found(get([("point", "128,128")])).map(\.layer), ["squares"])
        XCTAssertTrue(service.metricsResponse().bodyText.contains("/styles/:id/query/:view/:size"))
    }

    /// The seed's tap through the service: the pixel at each flag's anchor of seed-flags.json (an
    /// @2x image, as a phone shows it) finds that flag, a placed symbol.
    func testSeedFlagTaps() throws {
        let flags = try SharedFolder.require("fixtures/styles/seed-flags.json").path
        var c = try ServerConfig.singleStyle(path: flags)
        c.workers = 1
        service = try MapService(config: c)
        let id = try XCTUnwrap(c.styles.first?.id)
        let view = "/styles/\(id)/query/24.6881,60.185755,16/400x300@2x"
        let snapshotter = Snapshotter(options: MapSnapshotOptions(size: Size(width: 400, height: 300)))
        defer { snapshotter.close() }
        try snapshotter.setStyle(path: flags)
        let shot = try snapshotter.snapshot(camera: CameraOptions(center: Coordinate(latitude: 60.185755, longitude: 24.6881), zoom: 16))
        for (flag, lon, lat) in [("flag-red", 24.68727, 60.185755), ("flag-yellow", 24.68827, 60.186255), ("flag-purple", 24.68927, 60.186055)] {
            let p = shot.point(for: Coordinate(latitude: lat, longitude: lon))
            let r = get([("point", "\(Int(p.x * 2)),\(Int(p.y * 2))"), ("layers", "points")], path: view)
            XCTAssertEqual(r.status, 200, text(r))
            let features = try JSON.parse(text(r))["features"]?.arrayValue ?? []
            XCTAssertEqual(features.map { $0["properties"]?["id"]?.stringValue }, [flag], text(r))
        }
        XCTAssertEqual(try found(get([("point", "10,10"), ("layers", "points")], path: view)).count, 0)
    }

    func testTurnedOffWithStaticMaps() throws {
        var c = config()
        c.serveStaticMaps = false
        service = try MapService(config: c)
        XCTAssertEqual(get([("point", "128,128")]).status, 404)
    }
}

private extension HTTPResponse {
    var bodyText: String { String(decoding: body, as: UTF8.self) }
}
