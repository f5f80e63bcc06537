import Foundation
import XCTest
import GLSnapConformance
import GLSnapTestSupport

/// Cases of the shared render suites for what today's style spec adds to lines, extrusions and
/// expressions (issue 13), run and judged by the conformance runner's own case code as
/// LayerRenderSuiteTests runs its cases; they need ../shared.
final class StyleSpecRenderSuiteTests: XCTestCase {
    private func check(_ name: String, suite suiteName: String = "integration-gljs",
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let suite = try SharedFolder.require(suiteName)
        let folder = try SharedFolder.require("\(suiteName)/render/tests/\(name)/style.json").deletingLastPathComponent()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("glsnap-spec-suite").path
        let runner = RenderSuite(suiteDir: suite.path, filter: CaseFilter([]), backend: .osmesa, outputDir: output, verbose: false)
        let result = runner.runCase(id: name, folder: folder.path,
                                    comparer: ImageComparer(threshold: RenderSuite.threshold, includeAA: false))
        XCTAssertEqual(result.status, .passed, "\(name): \(result.reason ?? "") (images in \(output)/\(name))", file: file, line: line)
    }

    // line-gradient cut into dashes: the dash distance runs by progress along the whole line.
    func testLineGradientWithDashes() throws { try check("line-gradient-dasharray/gradient-with-dash") }
    func testLineGradientDashesInHCLAndLab() throws { try check("line-gradient-dasharray/color-interpolation-hcl-lab") }
    func testTranslucentLineGradientWithDashes() throws { try check("line-gradient-dasharray/translucent") }

    // Round-capped dashes: their edges fade over twice the butt ones' distance.
    func testRoundDashesWithZeroGaps() throws { try check("line-dasharray/round/zero-gap-width", suite: "integration") }

    // A data-driven line-dasharray: each feature its own pattern.
    func testDataDrivenDasharray() throws { try check("line-dasharray/property-function/cap-default") }

    // `within` in a paint property sees the feature placed in its tile.
    func testWithinInCirclePaint() throws { try check("within/paint-circle") }
    func testWithinInLinePaint() throws { try check("within/paint-line-with-simple-polygon") }
}
