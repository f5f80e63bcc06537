import Foundation
import XCTest
import GLSnapImage
@testable import GLSnap

/// Cases of the public render suite for raster, image, hillshade, heatmap and fill-extrusion
/// layers, rendered through the Snapshotter and judged as the suite does (pixelmatch 0.13, no AA).
final class LayerRenderSuiteTests: XCTestCase {
    static let integration = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/integration").path

    private func check(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let folder = "\(Self.integration)/render/tests/\(name)"
        guard FileManager.default.fileExists(atPath: folder + "/style.json") else {
            throw XCTSkip("render suite not found at \(folder)")
        }
        let styleJSON = try String(contentsOfFile: folder + "/style.json", encoding: .utf8)
        let test = (try JSONSerialization.jsonObject(with: Data(styleJSON.utf8)) as? [String: Any])
            .flatMap { ($0["metadata"] as? [String: Any])?["test"] as? [String: Any] } ?? [:]
        let width = test["width"] as? Double ?? 512, height = test["height"] as? Double ?? 512
        let snapshotter = Snapshotter(options: MapSnapshotOptions(size: Size(width: width, height: height)))
        let root = Self.integration
        snapshotter.resourceRewrite = { url in url.hasPrefix("local://") ? root + "/" + url.dropFirst("local://".count) : nil }
        try snapshotter.setStyle(json: styleJSON, baseURL: folder + "/")
        let image = try snapshotter.snapshot().image
        // The best of the case's expected*.png (some cases have one per GPU precision).
        var best = Int.max
        for f in try FileManager.default.contentsOfDirectory(atPath: folder) where f.hasPrefix("expected") && f.hasSuffix(".png") {
            let expected = try PNGDecoder().decode([UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + f))))
            guard expected.width == image.width, expected.height == image.height else { continue }
            best = min(best, pixelmatch(image, expected, threshold: 0.13))
        }
        XCTAssertLessThanOrEqual(Double(best) / Double(image.width * image.height), 0.00015, "\(name)", file: file, line: line)
    }

    func testRasterHueRotate() throws { try check("raster-hue-rotate/literal") }
    func testRasterRotationIsPixelAligned() throws { try check("raster-rotation/90") }
    func testRasterMaskingWithParentTiles() throws { try check("raster-masking/overlapping") }
    func testImageSource() throws { try check("image/default") }
    func testHillshadeMapbox() throws { try check("hillshade-accent-color/default") }
    func testHillshadeTerrarium() throws { try check("hillshade-accent-color/terrarium") }
    func testHeatmapDefaultRamp() throws { try check("heatmap-color/default") }
    func testHeatmapPitched() throws { try check("heatmap-radius/pitch30") }
    func testFillExtrusionColor() throws { try check("fill-extrusion-color/default") }
}
