import Foundation
import XCTest
import GLSnapConformance
import GLSnapImage
import GLSnapStyle

/// The render runner's `addCustomLayer` (the GL JS harness's custom layers, ported) and the
/// operations GL JS's harness carries out as nothing.
final class ConformanceCustomLayerTests: XCTestCase {
    private static func style(_ operations: String, layers: String = #"[{"id": "bg", "type": "background", "paint": {"background-color": "lime"}}]"#) -> String {
        """
        {"version": 8, "metadata": {"test": {"width": 64, "height": 64, "operations": \(operations)}},
         "sources": {"s": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[[-20, -10], [-20, 10], [0, 10], [0, -10], [-20, -10]]]}}},
         "layers": \(layers)}
        """
    }

    func testOperationsParse() throws {
        let spec = RenderCaseSpec(style: try JSON.parse(ConformanceCustomLayerTests.style(
            #"[["addCustomLayer", "null-island", "bg"], ["pauseTiles", "s"], ["addCustomLayer", "tent-3d"]]"#)))
        XCTAssertEqual(spec.unsupported, [])
        guard spec.operations.count == 3,
              case .addCustomLayer("null-island", "bg") = spec.operations[0],
              case .harnessNoOp("pauseTiles") = spec.operations[1],
              case .addCustomLayer("tent-3d", nil) = spec.operations[2] else { return XCTFail("\(spec.operations)") }
        let unknown = RenderCaseSpec(style: try JSON.parse(ConformanceCustomLayerTests.style(#"[["addCustomLayer", "nope"]]"#)))
        XCTAssertEqual(unknown.unsupported, ["operations not supported: addCustomLayer nope"])
    }

    private func image(_ style: String) throws -> RGBAImage {
        let spec = RenderCaseSpec(style: try JSON.parse(style))
        let (snapshotter, _) = try RenderSuite.prepare(styleText: style, spec: spec, suiteDir: NSTemporaryDirectory(), backend: .osmesa)
        return try snapshotter.snapshot().image
    }

    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 4
        return Array(image.pixels[i..<(i + 4)])
    }

    /// null-island: a red point 20 pixels wide at longitude and latitude 0, below the layer named.
    func testNullIslandIsDrawnWhereTheHarnessDrawsIt() throws {
        let top = try image(ConformanceCustomLayerTests.style(#"[["addCustomLayer", "null-island"]]"#))
        XCTAssertEqual(pixel(top, 32, 32), [255, 0, 0, 255])
        XCTAssertEqual(pixel(top, 23, 32), [255, 0, 0, 255])
        XCTAssertEqual(pixel(top, 21, 32), [0, 255, 0, 255], "11 pixels from the center")
        let fill = #"[{"id": "bg", "type": "background", "paint": {"background-color": "lime"}}, {"id": "fill", "type": "fill", "source": "s", "paint": {"fill-color": "white", "fill-antialias": false}}]"#
        let below = try image(ConformanceCustomLayerTests.style(#"[["addCustomLayer", "null-island", "fill"]]"#, layers: fill))
        XCTAssertEqual(pixel(below, 28, 32), [255, 255, 255, 255], "under the fill west of 0")
        XCTAssertEqual(pixel(below, 36, 32), [255, 0, 0, 255], "east of it")
    }
}
