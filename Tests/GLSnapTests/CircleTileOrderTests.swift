import Foundation
import XCTest
@testable import GLSnap

/// Circles are not clipped to their tiles, so where circles of neighboring tiles overlap the tile
/// order shows: GL JS draws north to south, then west to east (`regressions/mapbox-gl-native#7357`).
final class CircleTileOrderTests: XCTestCase {
    /// One circle 1° from the center in each of the four zoom-1 tiles, each in its own color.
    static let style = """
        {"version": 8, "center": [0, 0], "zoom": 1,
         "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
           {"type": "Feature", "properties": {"c": "red"}, "geometry": {"type": "Point", "coordinates": [-1, 1]}},
           {"type": "Feature", "properties": {"c": "lime"}, "geometry": {"type": "Point", "coordinates": [1, 1]}},
           {"type": "Feature", "properties": {"c": "blue"}, "geometry": {"type": "Point", "coordinates": [-1, -1]}},
           {"type": "Feature", "properties": {"c": "magenta"}, "geometry": {"type": "Point", "coordinates": [1, -1]}}]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "c", "type": "circle", "source": "s", "paint": {"circle-color": ["get", "c"], "circle-radius": 5}}]}
        """

    private func render(_ style: String) throws -> (Int, Int) -> [UInt8] {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 128, height: 128)))
        try s.setStyle(json: style)
        let image = try s.snapshot().image
        return { x, y in
            let i = (y * image.width + x) * 4
            return Array(image.pixels[i..<(i + 3)])
        }
    }

    func testCirclesOfLaterTilesCoverEarlierOnes() throws {
        let rgb = try render(CircleTileOrderTests.style)
        // A degree is 1024 / 360 = 2.8 px: each probe lies in exactly two circles, well inside
        // both (within 4 px of their centers, past the 5-px radius's antialiased rim).
        XCTAssertEqual(rgb(64, 60), [0, 255, 0], "north: the northeast tile after the northwest one")
        XCTAssertEqual(rgb(60, 64), [0, 0, 255], "west: the southwest tile after the northwest one")
        XCTAssertEqual(rgb(68, 64), [255, 0, 255], "east: the southeast tile last")
        XCTAssertEqual(rgb(64, 68), [255, 0, 255], "south: the southeast tile last")
    }

    /// circle-sort-key orders the circles across tiles, not only within each: the northwest
    /// circle, of the highest key, lies over its neighbors though its tile is drawn first.
    func testSortKeyOrdersCirclesAcrossTiles() throws {
        let keyed = CircleTileOrderTests.style.replacingOccurrences(
            of: #""paint": {"circle-color""#,
            with: #""layout": {"circle-sort-key": ["match", ["get", "c"], "red", 2, "lime", 1, 0]}, "paint": {"circle-color""#)
        let rgb = try render(keyed)
        XCTAssertEqual(rgb(64, 60), [255, 0, 0], "north: the northwest circle (key 2) over the northeast one (key 1)")
        XCTAssertEqual(rgb(60, 64), [255, 0, 0], "west: the northwest circle over the southwest one (key 0)")
        XCTAssertEqual(rgb(68, 64), [0, 255, 0], "east: the northeast circle (key 1) over the southeast one (key 0)")
        XCTAssertEqual(rgb(64, 68), [255, 0, 255], "south: equal keys keep the tile order")
    }
}
