import GLSnap
import GLSnapStyle
import XCTest

/// `Snapshot.queryRenderedFeatures` and `querySourceFeatures`: what a tap on a snapshot finds.
final class FeatureQueryTests: XCTestCase {
    /// At zoom 0 a 512-px world; the view is 256 px, centered on 0, 0.
    private let style = #"""
    {"version": 8,
     "sources": {
       "pts": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
         {"type": "Feature", "id": 1, "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"kind": "a"}},
         {"type": "Feature", "id": 2, "geometry": {"type": "Point", "coordinates": [45, 0]}, "properties": {"kind": "b"}}]}},
       "road": {"type": "geojson", "data": {"type": "Feature", "properties": {"name": "x"},
         "geometry": {"type": "LineString", "coordinates": [[-90, -40], [90, -40]]}}},
       "area": {"type": "geojson", "data": {"type": "Feature", "properties": {"name": "square"},
         "geometry": {"type": "Polygon", "coordinates": [[[-60, 20], [-20, 20], [-20, 50], [-60, 50], [-60, 20]]]}}}},
     "layers": [
       {"id": "bg", "type": "background", "paint": {"background-color": "white"}},
       {"id": "area", "type": "fill", "source": "area", "paint": {"fill-color": "green"}},
       {"id": "road", "type": "line", "source": "road", "paint": {"line-width": 10}},
       {"id": "under", "type": "circle", "source": "pts", "paint": {"circle-radius": 4}},
       {"id": "dots", "type": "circle", "source": "pts",
        "paint": {"circle-radius": ["case", ["boolean", ["feature-state", "big"], false], 20, 10], "circle-stroke-width": 2}}]}
    """#

    private func snapshot(_ configure: (Snapshotter) -> Void = { _ in }) throws -> Snapshot {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 256), pixelRatio: 1))
        try s.setStyle(json: style)
        s.setCamera(CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 0))
        configure(s)
        return try s.snapshot()
    }

    private func layers(_ found: [QueriedFeature]) -> [String] { found.compactMap(\.layer) }

    func testCircleRadiusStrokeAndOrder() throws {
        let shot = try snapshot()
        let center = shot.point(for: Coordinate(latitude: 0, longitude: 0))
        // Topmost layer first; the lower circle (radius 4) is not under a point 8 px away.
        XCTAssertEqual(layers(try shot.queryRenderedFeatures(at: center)), ["dots", "under"])
        XCTAssertEqual(layers(try shot.queryRenderedFeatures(at: Point(x: center.x + 11, y: center.y))), ["dots"],
                       "radius 10 plus stroke 2 reaches 11 px")
        XCTAssertEqual(try shot.queryRenderedFeatures(at: Point(x: center.x + 13, y: center.y)), [])
        let hit = try XCTUnwrap(try shot.queryRenderedFeatures(at: center).first)
        XCTAssertEqual(hit.id, .number(1))
        XCTAssertEqual(hit.properties["kind"], .string("a"))
        XCTAssertEqual(hit.source, "pts")
        XCTAssertNil(hit.sourceLayer)
        XCTAssertEqual(hit.geometry["type"], .string("Point"))
        let lonLat = try XCTUnwrap(hit.geometry["coordinates"]?.arrayValue?.compactMap(\.numberValue))
        XCTAssertEqual(lonLat[0], 0, accuracy: 1e-9)
        XCTAssertEqual(lonLat[1], 0, accuracy: 1e-9)
    }

    func testLineWidthFillAndBox() throws {
        let shot = try snapshot()
        let road = shot.point(for: Coordinate(latitude: -40, longitude: 0))
        XCTAssertEqual(layers(try shot.queryRenderedFeatures(at: Point(x: road.x, y: road.y + 4))), ["road"])
        XCTAssertEqual(try shot.queryRenderedFeatures(at: Point(x: road.x, y: road.y + 6)), [], "half of width 10 is 5 px")
        let inside = shot.point(for: Coordinate(latitude: 35, longitude: -40))
        let found = try shot.queryRenderedFeatures(at: inside)
        XCTAssertEqual(layers(found), ["area"])
        XCTAssertEqual(found.first?.geometry["type"], .string("Polygon"))
        // A box over the whole view finds every feature of every queried layer, topmost first.
        let all = try shot.queryRenderedFeatures(in: (Point(x: 0, y: 0), Point(x: 256, y: 256)))
        XCTAssertEqual(layers(all), ["dots", "dots", "under", "under", "road", "area"])
        XCTAssertEqual(all.prefix(2).map(\.id), [.number(2), .number(1)], "within a layer the later feature first")
    }

    func testOptionsAndBadQueries() throws {
        let shot = try snapshot()
        let center = shot.point(for: Coordinate(latitude: 0, longitude: 0))
        XCTAssertEqual(layers(try shot.queryRenderedFeatures(at: center, options: QueryOptions(layers: ["under"]))), ["under"])
        let box = (Point(x: 0, y: 0), Point(x: 256, y: 256))
        let filtered = try shot.queryRenderedFeatures(in: box, options: QueryOptions(layers: ["dots"], filter: .array([.string("=="), .string("kind"), .string("b")])))
        XCTAssertEqual(filtered.map(\.id), [.number(2)])
        XCTAssertThrowsError(try shot.queryRenderedFeatures(at: center, options: QueryOptions(layers: ["nope"]))) { error in
            XCTAssertEqual("\(error)", "feature query: the layer 'nope' does not exist in the style")
        }
        XCTAssertThrowsError(try shot.queryRenderedFeatures(at: center, options: QueryOptions(filter: .array([.string("nonsense-op"), .number(1)])))) { error in
            XCTAssertTrue("\(error)".contains("is not a valid filter expression"), "\(error)")
        }
        XCTAssertThrowsError(try shot.queryRenderedFeatures(at: Point(x: .nan, y: 0)))
    }

    func testFeatureStateWidensAndIsReported() throws {
        let shot = try snapshot { $0.setFeatureState(source: "pts", id: "2", state: ["big": .bool(true)]) }
        let p = shot.point(for: Coordinate(latitude: 0, longitude: 45))
        let found = try shot.queryRenderedFeatures(at: Point(x: p.x + 18, y: p.y))
        XCTAssertEqual(layers(found), ["dots"], "radius 20 from the state")
        XCTAssertEqual(found.first?.state, ["big": .bool(true)])
        XCTAssertEqual(found.first?.geoJSON["state"], .object(["big": .bool(true)]))
    }

    func testQuerySourceFeatures() throws {
        let shot = try snapshot()
        let pts = try shot.querySourceFeatures(source: "pts")
        XCTAssertEqual(Set(pts.compactMap(\.id)), [.number(1), .number(2)])
        XCTAssertNil(pts.first?.layer)
        XCTAssertEqual(try shot.querySourceFeatures(source: "pts", filter: .array([.string("=="), .string("kind"), .string("a")])).map(\.id), [.number(1)])
        XCTAssertThrowsError(try shot.querySourceFeatures(source: "missing")) { error in
            XCTAssertEqual("\(error)", "feature query: the source 'missing' does not exist in the style")
        }
    }

    /// The seed's tap: the pixel under each of the three flags of seed-flags.json finds that flag.
    func testSeedFlagTaps() throws {
        let shared = try TestPaths.requireShared()
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 400, height: 300), pixelRatio: 2))
        try s.setStyle(path: shared.appendingPathComponent("fixtures/styles/seed-flags.json").path)
        s.setCamera(CameraOptions(center: Coordinate(latitude: 60.185755, longitude: 24.6881), zoom: 16))
        let shot = try s.snapshot()
        let flags = [("flag-red", 24.68727, 60.185755), ("flag-yellow", 24.68827, 60.186255), ("flag-purple", 24.68927, 60.186055)]
        let background: [UInt8] = [0xf2, 0xef, 0xe9]
        for (id, lon, lat) in flags {
            let anchor = shot.point(for: Coordinate(latitude: lat, longitude: lon))
            // The drawn pixel of the flag nearest its anchor (the icon is centered there; its
            // middle may be transparent): a tap on what the user sees.
            let at = try XCTUnwrap(nearestDrawnPixel(shot, around: anchor, background: background), "\(id) is drawn near \(anchor)")
            let found = try shot.queryRenderedFeatures(at: at)
            XCTAssertEqual(found.count, 1, "\(id): \(found.map(\.properties))")
            XCTAssertEqual(found.first?.properties["id"], .string(id))
            XCTAssertEqual(found.first?.layer, "points")
        }
        XCTAssertEqual(try shot.queryRenderedFeatures(at: Point(x: 5, y: 5)), [], "no flag in the corner")
    }

    /// The center (in points) of the image pixel nearest `point` that is not `background`, within 16 points.
    private func nearestDrawnPixel(_ shot: Snapshot, around point: Point, background: [UInt8]) -> Point? {
        let r = shot.pixelRatio, image = shot.image
        let cx = Int(point.x * r), cy = Int(point.y * r), reach = Int(16 * r)
        var best: (d: Int, x: Int, y: Int)?
        for y in max(0, cy - reach)..<min(image.height, cy + reach) {
            for x in max(0, cx - reach)..<min(image.width, cx + reach) {
                let i = (y * image.width + x) * 4
                guard Array(image.pixels[i..<i + 3]) != background, image.pixels[i + 3] > 0 else { continue }
                let d = (x - cx) * (x - cx) + (y - cy) * (y - cy)
                if let b = best, b.d <= d { continue }
                best = (d, x, y)
            }
        }
        return best.map { Point(x: (Double($0.x) + 0.5) / r, y: (Double($0.y) + 0.5) / r) }
    }

    /// Symbols answer only where they were placed: of overlapping icons the one hidden by
    /// collision is not found, and with icon-allow-overlap all are.
    func testOnlyPlacedSymbolsAnswer() throws {
        let shared = try TestPaths.requireShared()
        let path = shared.appendingPathComponent("fixtures/styles/seed-flags.json").path
        var document = try JSON.parse(String(contentsOfFile: path, encoding: .utf8))
        func shot(allowOverlap: Bool) throws -> Snapshot {
            guard case .object(var root) = document, case .array(var layers)? = root["layers"],
                  case .object(var layer) = layers[1], case .object(var layout)? = layer["layout"] else { throw XCTSkip("style changed") }
            layout["icon-allow-overlap"] = .bool(allowOverlap)
            layer["layout"] = .object(layout)
            layers[1] = .object(layer)
            root["layers"] = .array(layers)
            document = .object(root)
            let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 200, height: 200), pixelRatio: 1))
            try s.setStyle(json: document.text, baseURL: (path as NSString).deletingLastPathComponent + "/")
            // At zoom 12 the three flags are a few pixels apart: their icons overlap.
            s.setCamera(CameraOptions(center: Coordinate(latitude: 60.186, longitude: 24.6882), zoom: 12))
            return try s.snapshot()
        }
        let hidden = try shot(allowOverlap: false)
        let box = (Point(x: 60, y: 60), Point(x: 140, y: 140))
        XCTAssertEqual(try hidden.queryRenderedFeatures(in: box).count, 1, "one flag placed, two hidden")
        XCTAssertEqual(try shot(allowOverlap: true).queryRenderedFeatures(in: box).count, 3)
    }
}
