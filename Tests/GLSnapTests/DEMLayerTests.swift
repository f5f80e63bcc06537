import Foundation
import XCTest
@testable import GLSnap
@testable import GLSnapRender
import GLSnapImage

/// hillshade's methods and lights, and color-relief, on one synthetic DEM tile: a plane rising
/// eastwards (its slopes face west), drawn over black.
final class DEMLayerTests: XCTestCase {
    /// Meters the plane rises per DEM pixel, eastwards, from `base` at the west edge.
    static let rise = 30.0, base = 1000.0

    /// Writes tile 10/512/512 (terrarium encoding) and returns a style of `layer` over it.
    private func style(_ dir: URL, layer: String) throws -> String {
        var pixels = [UInt8](repeating: 255, count: 256 * 256 * 4)
        for y in 0..<256 {
            for x in 0..<256 {
                // terrarium: elevation = R * 256 + G + B / 256 - 32768
                let v = DEMLayerTests.base + DEMLayerTests.rise * Double(x) + 32768
                let i = (y * 256 + x) * 4
                pixels[i] = UInt8(Int(v) / 256)
                pixels[i + 1] = UInt8(Int(v) % 256)
                pixels[i + 2] = UInt8(Int((v - v.rounded(.down)) * 256))
            }
        }
        try Data(try PNGEncoder().encode(RGBAImage(width: 256, height: 256, pixels: pixels)))
            .write(to: dir.appendingPathComponent("10-512-512.png"))
        return """
        {"version": 8, "center": [0.1758, -0.1758], "zoom": 10.5,
         "sources": {"dem": {"type": "raster-dem", "encoding": "terrarium", "tiles": ["{z}-{x}-{y}.png"],
                             "minzoom": 10, "maxzoom": 10, "tileSize": 256}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "black"}}, \(layer)]}
        """
    }

    /// The pixel at the middle of a 64x64 snapshot of `layer`, and the snapshot's warnings.
    private func render(_ layer: String) throws -> (pixel: [Int], warnings: [String]) {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 64, height: 64)))
        try s.setStyle(json: try style(dir, layer: layer), baseURL: dir.path + "/")
        let snap = try s.snapshot()
        let i = (32 * snap.image.width + 32) * 4
        return (snap.image.pixels[i..<(i + 4)].map(Int.init), snap.warnings)
    }

    private func hillshade(_ paint: String) throws -> [Int] {
        try render(#"{"id": "h", "type": "hillshade", "source": "dem", "paint": {"hillshade-illumination-anchor": "map", \#(paint)}}"#).pixel
    }

    func testBasicMethodFollowsTheAltitude() throws {
        // A light straight above lights every slope: the highlight, whatever the direction
        // (the standard method ignores the altitude and shades this west-facing slope as turned
        // away from an eastern light).
        let p = try hillshade(#""hillshade-method": "basic", "hillshade-illumination-altitude": 90, "hillshade-illumination-direction": 90, "hillshade-highlight-color": "red", "hillshade-shadow-color": "blue""#)
        XCTAssertGreaterThan(p[0], 60, "\(p)")
        XCTAssertLessThan(p[2], 10, "\(p)")
    }

    func testMultidirectionalAveragesItsLights() throws {
        // The western light highlights the slope (red), the eastern one shades it (blue).
        let p = try hillshade(#""hillshade-method": "multidirectional", "hillshade-illumination-direction": [270, 90], "hillshade-illumination-altitude": 30, "hillshade-highlight-color": ["red", "lime"], "hillshade-shadow-color": "blue""#)
        XCTAssertGreaterThan(p[0], 30, "\(p)")
        XCTAssertGreaterThan(p[2], 30, "\(p)")
        XCTAssertLessThan(p[1], 10, "the second highlight faces away from its light: \(p)")
    }

    func testCombinedMixesShadowAndHighlightByTheLightsAngle() throws {
        // From straight above, a slope gets both shadow and highlight in proportion to its angle
        // (the standard method gives this west-facing slope only the shadow of an eastern light).
        let p = try hillshade(#""hillshade-method": "combined", "hillshade-illumination-altitude": 90, "hillshade-illumination-direction": 90, "hillshade-highlight-color": "red", "hillshade-shadow-color": "blue""#)
        XCTAssertGreaterThan(p[0], 15, "\(p)")
        XCTAssertGreaterThan(p[2], 15, "\(p)")
    }

    func testColorReliefColorsTheElevation() throws {
        // The middle of the tile stands at 1000 + 30 * 128 = 4840 m: 42% of the way from red to blue.
        let (p, warnings) = try render(#"{"id": "c", "type": "color-relief", "source": "dem", "paint": {"color-relief-color": ["interpolate", ["linear"], ["elevation"], 4000, "red", 6000, "blue"]}}"#)
        XCTAssertEqual(Double(p[0]), 255 * 0.58, accuracy: 12, "\(p)")
        XCTAssertEqual(Double(p[2]), 255 * 0.42, accuracy: 12, "\(p)")
        XCTAssertEqual(warnings, [])
        // Half opacity, over black: half the color.
        let (half, _) = try render(#"{"id": "c", "type": "color-relief", "source": "dem", "paint": {"color-relief-opacity": 0.5, "color-relief-color": ["interpolate", ["linear"], ["elevation"], 0, "lime", 10000, "lime"]}}"#)
        XCTAssertEqual(Double(half[1]), 128, accuracy: 3, "\(half)")
    }

    func testReliefRampPacksElevationsAsTheDEM() {
        // mapbox: (R * 65536 + G * 256 + B) / 10 - 10000; terrarium: R * 256 + G + B / 256 - 32768
        XCTAssertEqual(ReliefRamp.pack(400, unpack: [6553.6, 25.6, 0.1, 10000]), [1, 150, 64, 255])
        XCTAssertEqual(ReliefRamp.pack(-10.5, unpack: [256, 1, 1 / 256, 32768]), [127, 245, 128, 255])
        XCTAssertEqual(ReliefRamp.pack(1e9, unpack: [256, 1, 1 / 256, 32768]), [255, 255, 255, 255], "clamped")
    }
}
