import GLSnap
import GLSnapImage
import GLSnapStyle
import XCTest

/// `setFeatureState` feeds `["feature-state", …]` in paint properties, by id or `promoteId`.
final class FeatureStateTests: XCTestCase {
    private let style = #"""
    {"version": 8,
     "sources": {
       "points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
         {"type": "Feature", "id": 7, "geometry": {"type": "Point", "coordinates": [-20, 0]}, "properties": {}},
         {"type": "Feature", "id": 8, "geometry": {"type": "Point", "coordinates": [20, 0]}, "properties": {}}]}},
       "named": {"type": "geojson", "promoteId": "code", "data": {"type": "Feature", "properties": {"code": "x1"},
         "geometry": {"type": "Point", "coordinates": [0, 30]}}}},
     "layers": [
       {"id": "bg", "type": "background", "paint": {"background-color": "white"}},
       {"id": "p", "type": "circle", "source": "points",
        "paint": {"circle-radius": 10, "circle-color": ["case", ["boolean", ["feature-state", "hot"], false], "red", "blue"]}},
       {"id": "n", "type": "circle", "source": "named",
        "paint": {"circle-radius": 10, "circle-color": ["coalesce", ["feature-state", "color"], "black"]}}]}
    """#

    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 4
        return Array(image.pixels[i..<i + 3])
    }

    func testStateChangesRepaintFeatures() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 128, height: 128), pixelRatio: 1))
        try s.setStyle(json: style)
        s.setCamera(CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 0))
        // At zoom 0 a 512-px world: 20° of longitude is about 28 px; 30° of latitude about 45 px.
        let left = (64 - 28, 64), right = (64 + 28, 64), top = (64, 64 - 45)
        var image = try s.snapshot().image
        XCTAssertEqual(pixel(image, left.0, left.1), [0, 0, 255])
        XCTAssertEqual(pixel(image, right.0, right.1), [0, 0, 255])
        XCTAssertEqual(pixel(image, top.0, top.1), [0, 0, 0])

        s.setFeatureState(source: "points", id: "8", state: ["hot": .bool(true)])
        s.setFeatureState(source: "named", id: "x1", state: ["color": .string("lime")])
        XCTAssertEqual(s.featureState(source: "points", id: "8"), ["hot": .bool(true)])
        image = try s.snapshot().image
        XCTAssertEqual(pixel(image, left.0, left.1), [0, 0, 255], "feature 7 has no state")
        XCTAssertEqual(pixel(image, right.0, right.1), [255, 0, 0], "the cached paint was evaluated again")
        XCTAssertEqual(pixel(image, top.0, top.1), [0, 255, 0], "promoteId names the feature")

        s.removeFeatureState(source: "points", id: "8", key: "hot")
        s.removeFeatureState(source: "named")
        image = try s.snapshot().image
        XCTAssertEqual(pixel(image, right.0, right.1), [0, 0, 255])
        XCTAssertEqual(pixel(image, top.0, top.1), [0, 0, 0])
        XCTAssertEqual(Snapshotter.featureID(.number(8)), "8")
        XCTAssertEqual(Snapshotter.featureID(.number(1.2)), "1.2")
    }
}
