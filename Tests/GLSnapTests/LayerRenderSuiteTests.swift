import Foundation
import XCTest
import GLSnapConformance
import GLSnapTestSupport

/// Cases of the public render suite for raster, image, hillshade, heatmap and fill-extrusion
/// layers, run by the conformance runner's own case code (RenderSuite.runCase) and judged as it
/// judges them; they need ../shared (the project's own references are ReferenceRenderTests).
final class LayerRenderSuiteTests: XCTestCase {
    private func check(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let suite = try SharedFolder.require("integration")
        let folder = try SharedFolder.require("integration/render/tests/\(name)/style.json").deletingLastPathComponent()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("glsnap-layer-suite").path
        let runner = RenderSuite(suiteDir: suite.path, filter: CaseFilter([]), backend: .osmesa, outputDir: output, verbose: false)
        let result = runner.runCase(id: name, folder: folder.path,
                                    comparer: ImageComparer(threshold: RenderSuite.threshold, includeAA: false))
        XCTAssertEqual(result.status, .passed, "\(name): \(result.reason ?? "") (images in \(output)/\(name))", file: file, line: line)
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
    // Heights at MapLibre Native's scale put each roof and wall edge on its pixel row.
    func testFillExtrusionEdgesOnTheirRows() throws { try check("fill-extrusion-opacity/default") }
    func testFillExtrusionFloatingBase() throws { try check("fill-extrusion-base/property-function") }
    func testFillExtrusionPatternWalls() throws { try check("fill-extrusion-pattern/literal") }
    // A patterned fill's antialiasing outline is drawn in the pattern's colors.
    func testFillPatternOutline() throws { try check("fill-pattern/wrapping-with-interpolation") }
}
