import Foundation
import GLSnap
import GLSnapImage
import GLSnapStyle
import XCTest

/// Runtime styling on `Snapshotter`: each edit changes what the next snapshot draws, refuses bad
/// input naming it (the style unchanged), and redoes only the cached work it affects.
final class RuntimeStylingTests: XCTestCase {
    private let style = #"""
    {"version": 8,
     "sources": {
       "shapes": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
         {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[-60, -40], [-10, -40], [-10, 40], [-60, 40], [-60, -40]]]},
          "properties": {"kind": "a"}},
         {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[10, -40], [60, -40], [60, 40], [10, 40], [10, -40]]]},
          "properties": {"kind": "b"}}]}}},
     "layers": [
       {"id": "bg", "type": "background", "paint": {"background-color": "white"}},
       {"id": "fill", "type": "fill", "source": "shapes",
        "paint": {"fill-color": ["match", ["get", "kind"], "a", "#0000ff", "#00ff00"]}}]}
    """#

    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 4
        return Array(image.pixels[i..<i + 3])
    }

    private func snapshotter(_ json: String? = nil) throws -> Snapshotter {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 128, height: 128), pixelRatio: 1))
        try s.setStyle(json: json ?? style)
        s.setCamera(CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 0))
        return s
    }

    // At zoom 0 (a 512-px world) in a 128-px view: 35° west is about 50 px left of the center.
    private let left = (64 - 50, 64), right = (64 + 50, 64), middle = (64, 64)

    func testPaintChangeDecodesAndTessellatesNothingAgain() throws {
        let s = try snapshotter()
        var image = try s.snapshot().image
        XCTAssertEqual(pixel(image, left.0, left.1), [0, 0, 255])
        let before = s.workCounts
        XCTAssertGreaterThan(before.tilesDecoded, 0)
        XCTAssertGreaterThan(before.layersTessellated, 0)

        // A data-driven paint value: the per-vertex colors are evaluated again, the geometry is not.
        try s.setPaintProperty("fill", "fill-color", .array([.string("match"), .array([.string("get"), .string("kind")]),
                                                             .string("a"), .string("#ff0000"), .string("#000000")]))
        image = try s.snapshot().image
        XCTAssertEqual(pixel(image, left.0, left.1), [255, 0, 0])
        XCTAssertEqual(pixel(image, right.0, right.1), [0, 0, 0])
        try s.setPaintProperty("bg", "background-color", .string("#ffff00"))
        try s.setPaintProperty("fill", "fill-opacity", .number(1))
        image = try s.snapshot().image
        XCTAssertEqual(pixel(image, middle.0, middle.1), [255, 255, 0])
        XCTAssertEqual(s.workCounts, before, "a paint change decoded or tessellated a tile again")

        // A layout or filter change tessellates that layer again from the cached tiles.
        try s.setFilter("fill", .array([.string("=="), .string("kind"), .string("b")]))
        image = try s.snapshot().image
        XCTAssertEqual(pixel(image, left.0, left.1), [255, 255, 0], "the filter leaves out kind a")
        XCTAssertEqual(s.workCounts.tilesDecoded, before.tilesDecoded)
        XCTAssertGreaterThan(s.workCounts.layersTessellated, before.layersTessellated)

        // New data decodes that source's tiles again.
        let tessellated = s.workCounts.layersTessellated
        let square: JSON = .array([.array([-60, -40, -10, -40, -10, 40, -60, 40, -60, -40].chunked2)])
        try s.setGeoJSONSourceData("shapes", .object(["type": .string("Feature"), "properties": .object(["kind": .string("b")]),
                                                      "geometry": .object(["type": .string("Polygon"), "coordinates": square])]))
        image = try s.snapshot().image
        XCTAssertEqual(pixel(image, left.0, left.1), [0, 0, 0], "the new data's kind b square is drawn")
        XCTAssertEqual(pixel(image, right.0, right.1), [255, 255, 0])
        XCTAssertGreaterThan(s.workCounts.tilesDecoded, before.tilesDecoded)
        XCTAssertGreaterThan(s.workCounts.layersTessellated, tessellated)
    }

    func testPaintChangeOnVectorTilesKeepsEveryCachedTile() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 256), pixelRatio: 1))
        try s.setStyle(path: TestPaths.example)
        let first = try s.snapshot().image
        let before = s.workCounts
        XCTAssertGreaterThan(before.symbolLayouts, 0)
        try s.setPaintProperty("water", "fill-color", .string("#ff0000"))
        try s.setPaintProperty("road_street", "line-width", .number(9))
        try s.setLayoutProperty("building", "visibility", .string("none"))
        let second = try s.snapshot().image
        XCTAssertNotEqual(first.pixels, second.pixels)
        XCTAssertEqual(s.workCounts, before, "paint and visibility changes must reuse every tile, tessellation and layout")
    }

    func testBadEditsAreRefusedNamingTheProblemAndLeaveTheStyle() throws {
        let s = try snapshotter()
        let original = s.getStyle()
        func refused(_ fragments: [String], notFound: Bool = false, _ edit: () throws -> Void,
                     file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try edit(), file: file, line: line) { error in
                guard let e = error as? StyleEditError else { return XCTFail("\(error)", file: file, line: line) }
                for f in fragments { XCTAssertTrue(e.description.contains(f), "\(e) lacks \(f)", file: file, line: line) }
                XCTAssertEqual(e.notFound, notFound, "\(e)", file: file, line: line)
            }
            XCTAssertEqual(s.getStyle(), original, "a refused edit changed the style", file: file, line: line)
        }
        refused(["nope"], notFound: true) { try s.setPaintProperty("nope", "fill-color", .string("red")) }
        refused(["layers.fill.paint.fill-color", "color expected"]) { try s.setPaintProperty("fill", "fill-color", .number(5)) }
        refused(["unknown property \"fill-colour\""]) { try s.setPaintProperty("fill", "fill-colour", .string("red")) }
        refused(["layers.fill.layout.visibility"]) { try s.setLayoutProperty("fill", "visibility", .string("maybe")) }
        refused(["layers.fill.filter"]) { try s.setFilter("fill", .array([.string("=="), .number(1)])) }
        refused(["layers.fill.minzoom", "30"]) { try s.setLayerZoomRange("fill", min: 30, max: nil) }
        refused(["already exists"]) { try s.addLayer(.object(["id": .string("fill"), "type": .string("background")])) }
        refused(["missing"], notFound: true) {
            try s.addLayer(.object(["id": .string("x"), "type": .string("fill"), "source": .string("missing")]))
        }
        refused(["before non-existing layer \"zz\""], notFound: true) {
            try s.addLayer(.object(["id": .string("x"), "type": .string("background")]), before: "zz")
        }
        refused(["layers.x", "circle-radius"]) {
            try s.addLayer(.object(["id": .string("x"), "type": .string("circle"), "source": .string("shapes"),
                                    "paint": .object(["circle-radius": .string("big")])]))
        }
        refused(["cannot be removed while layer \"fill\""]) { try s.removeSource("shapes") }
        refused(["sources.t", "type"]) { try s.addSource("t", .object(["type": .string("pie")])) }
        refused(["non-existing layer"], notFound: true) { try s.removeLayer("gone") }
        try s.addSource("v", .object(["type": .string("vector"), "tiles": .array([.string("x/{z}/{x}/{y}.pbf")])]))
        let withVector = s.getStyle()
        XCTAssertThrowsError(try s.setGeoJSONSourceData("v", .null)) { error in
            XCTAssertTrue("\(error)".contains("not a geojson source"), "\(error)")
        }
        XCTAssertEqual(s.getStyle(), withVector)
        try s.removeSource("v")
        XCTAssertEqual(s.getStyle(), original)
        refused(["intensity"]) { try s.setLight(.object(["intensity": .string("bright")])) }
        refused(["projection"]) { try s.setProjection(.number(3)) }
    }

    func testLayersAndSourcesAddedMovedAndRemoved() throws {
        let s = try snapshotter()
        try s.addSource("dot", .object(["type": .string("geojson"), "data": .object([
            "type": .string("Feature"), "properties": .object([:]),
            "geometry": .object(["type": .string("Point"), "coordinates": .array([.number(0), .number(0)])])])]))
        try s.addLayer(.object(["id": .string("c"), "type": .string("circle"), "source": .string("dot"),
                                "paint": .object(["circle-radius": .number(20), "circle-color": .string("#ff00ff")])]), before: "fill")
        var image = try s.snapshot().image
        XCTAssertEqual(pixel(image, middle.0, middle.1), [255, 0, 255])
        XCTAssertEqual(s.getLayer("c")?["type"], .string("circle"))
        XCTAssertEqual(s.getPaintProperty("c", "circle-color"), .string("#ff00ff"))
        XCTAssertEqual(s.getStyle()?["layers"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["bg", "c", "fill"])

        // The circle goes under the background: hidden.
        try s.moveLayer("c", before: "bg")
        image = try s.snapshot().image
        XCTAssertEqual(pixel(image, middle.0, middle.1), [255, 255, 255])
        try s.removeLayer("c")
        try s.removeSource("dot")
        XCTAssertNil(s.getLayer("c"))
        XCTAssertNil(s.getSource("dot"))

        // A source given inline with the layer, as GL JS takes it.
        try s.addLayer(.object(["id": .string("inline"), "type": .string("circle"),
                                "source": s.getSource("shapes") ?? .null,
                                "paint": .object(["circle-color": .string("#000000")])]))
        XCTAssertNotNil(s.getSource("inline"))
        XCTAssertEqual(s.getLayer("inline")?["source"], .string("inline"))

        try s.setLayerZoomRange("fill", min: 2, max: nil)
        image = try s.snapshot().image
        XCTAssertEqual(pixel(image, left.0, left.1), [255, 255, 255], "zoom 0 is below the layer's minzoom")
        XCTAssertEqual(s.getLayer("fill")?["minzoom"], .number(2))
        try s.setLayerZoomRange("fill", min: nil, max: nil)
        XCTAssertEqual(pixel(try s.snapshot().image, left.0, left.1), [0, 0, 255])

        // Unsetting a paint property returns it to the default (black fill).
        try s.setPaintProperty("fill", "fill-color", nil)
        XCTAssertNil(s.getPaintProperty("fill", "fill-color"))
        XCTAssertEqual(pixel(try s.snapshot().image, left.0, left.1), [0, 0, 0])
    }

    func testGlobalStateLightAndRootMembers() throws {
        let s = try snapshotter(#"""
        {"version": 8, "state": {"show": {"default": "a"}},
         "sources": {"shapes": {"type": "geojson", "data": {"type": "Feature", "properties": {"kind": "a"},
           "geometry": {"type": "Polygon", "coordinates": [[[-60, -40], [60, -40], [60, 40], [-60, 40], [-60, -40]]]}}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
           {"id": "fill", "type": "fill", "source": "shapes", "filter": ["==", ["get", "kind"], ["global-state", "show"]],
            "paint": {"fill-color": "#0000ff"}}]}
        """#)
        XCTAssertEqual(pixel(try s.snapshot().image, middle.0, middle.1), [0, 0, 255])
        try s.setGlobalStateProperty("show", .string("b"))
        XCTAssertEqual(s.globalState["show"], .string("b"))
        XCTAssertEqual(pixel(try s.snapshot().image, middle.0, middle.1), [255, 255, 255])
        try s.setGlobalStateProperty("show", nil)
        XCTAssertEqual(pixel(try s.snapshot().image, middle.0, middle.1), [0, 0, 255], "nil restores the style's default")

        try s.setLight(.object(["intensity": .number(0.2)]))
        try s.setLight(.object(["color": .string("red")]))
        XCTAssertEqual(s.getStyle()?["light"], .object(["intensity": .number(0.2), "color": .string("red")]), "setLight merges")
        try s.setSky(.object(["sky-color": .string("#000000")]))
        try s.setProjection(.object(["type": .string("mercator")]))
        XCTAssertEqual(s.getStyle()?["projection"]?["type"], .string("mercator"))
        try s.setProjection(nil)
        XCTAssertNil(s.getStyle()?["projection"])
        XCTAssertThrowsError(try s.setTerrain(.object(["source": .string("dem")])))
    }

    func testSetStyleKeepingTheCamera() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 16, height: 16), pixelRatio: 1))
        try s.setStyle(json: #"{"version": 8, "zoom": 3, "bearing": 10, "sources": {}, "layers": []}"#)
        try s.setStyle(json: #"{"version": 8, "bearing": 20, "sources": {}, "layers": []}"#, keepingCamera: true)
        XCTAssertEqual(s.camera.zoom, 3, "the zoom the new style does not set stays")
        XCTAssertNil(s.camera.bearing, "the new style's own bearing applies")
        XCTAssertEqual(s.styleCamera.bearing, 20)
    }

    func testEditsFromManyThreadsAllLand() throws {
        let s = try snapshotter()
        DispatchQueue.concurrentPerform(iterations: 40) { i in
            try? s.addLayer(.object(["id": .string("l\(i)"), "type": .string("background")]))
            if i % 4 == 0 { _ = try? s.snapshot() }
        }
        XCTAssertEqual(s.getStyle()?["layers"]?.arrayValue?.count, 42)
        // Limits.maxStyleLayers bounds a style grown by addLayer too.
        s.options.limits.maxStyleLayers = 42
        XCTAssertThrowsError(try s.addLayer(.object(["id": .string("one-more"), "type": .string("background")]))) { error in
            XCTAssertTrue("\(error)".contains("Limits.maxStyleLayers"), "\(error)")
        }
    }

    /// The seed's tap: doubling one flag's `icon-size` draws that flag twice as large.
    func testSeedFlagIconSizeDoubles() throws {
        let shared = try TestPaths.requireShared()
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 400, height: 300), pixelRatio: 1))
        try s.setStyle(path: shared.appendingPathComponent("fixtures/styles/seed-flags.json").path)
        s.setCamera(CameraOptions(center: Coordinate(latitude: 60.185755, longitude: 24.6881), zoom: 16))
        func redBox(_ image: RGBAImage) -> (width: Int, height: Int) {
            var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let p = pixel(image, x, y)
                    guard p[0] > 200, p[1] < 60, p[2] < 60 else { continue }
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
            return maxX < 0 ? (0, 0) : (maxX - minX + 1, maxY - minY + 1)
        }
        let small = redBox(try s.snapshot().image)
        XCTAssertGreaterThan(small.width, 4)
        let doubled: JSON = .array([.string("case"), .array([.string("=="), .array([.string("get"), .string("id")]), .string("flag-red")]),
                                    .number(2), .number(1)])
        try s.setLayoutProperty("points", "icon-size", doubled)
        XCTAssertEqual(s.getLayoutProperty("points", "icon-size"), doubled)
        let large = redBox(try s.snapshot().image)
        XCTAssertEqual(Double(large.width) / Double(small.width), 2, accuracy: 0.2, "\(small) -> \(large)")
        XCTAssertEqual(Double(large.height) / Double(small.height), 2, accuracy: 0.2, "\(small) -> \(large)")
    }

    /// Not a check: prints what a paint change costs next to loading the style again
    /// (GLSNAP_BENCH=1 runs it).
    func testMeasurePaintChangeCost() throws {
        guard ProcessInfo.processInfo.environment["GLSNAP_BENCH"] == "1" else { throw XCTSkip("set GLSNAP_BENCH=1") }
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 512, height: 512), pixelRatio: 1))
        let path = TestPaths.shared.appendingPathComponent("fixtures/styles/bright-v9-chicago.json").path
        try s.setStyle(path: path)
        s.setCamera(CameraOptions(center: Coordinate(latitude: 41.87, longitude: -87.65), zoom: 14))
        _ = try s.snapshot()
        func ms(_ body: () throws -> Void) rethrows -> Double {
            let t = DispatchTime.now().uptimeNanoseconds
            try body()
            return Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6
        }
        var edit: [Double] = [], editSnap: [Double] = [], reload: [Double] = [], reloadSnap: [Double] = []
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let base = (path as NSString).deletingLastPathComponent
        for i in 0..<10 {
            edit.append(try ms { try s.setPaintProperty("water", "fill-color", .string(i % 2 == 0 ? "#ff0000" : "#0000ff")) })
            editSnap.append(try ms { _ = try s.snapshot() })
            reload.append(try ms { try s.setStyle(json: text, baseURL: base + "/") })
            reloadSnap.append(try ms { _ = try s.snapshot() })
        }
        func median(_ a: [Double]) -> Double { a.sorted()[a.count / 2] }
        print(String(format: "paint change %.2f ms + snapshot %.1f ms; style reload %.2f ms + snapshot %.1f ms (medians of 10)",
                     median(edit), median(editSnap), median(reload), median(reloadSnap)))
    }
}

private extension Array where Element == Int {
    /// [x0, y0, x1, y1, …] as GeoJSON positions.
    var chunked2: [JSON] {
        stride(from: 0, to: count - 1, by: 2).map { JSON.array([.number(Double(self[$0])), .number(Double(self[$0 + 1]))]) }
    }
}
