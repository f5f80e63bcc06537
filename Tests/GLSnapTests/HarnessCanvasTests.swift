import Foundation
import GLSnap
import GLSnapConformance
import GLSnapImage
import GLSnapStyle
import XCTest

/// What the render-suite runner takes from GL JS's harness map: its largest canvas (the pixel
/// ratio lowered to fit), the part of the image it reports, and its maxPitch.
final class HarnessCanvasTests: XCTestCase {
    func testPixelRatioIsLoweredToFitTheLargestCanvas() {
        XCTAssertEqual(HarnessCanvas.pixelRatio(2, width: 512, height: 512), 2)
        XCTAssertEqual(HarnessCanvas.pixelRatio(5, width: 1792, height: 256), 8192.0 / 1792, accuracy: 1e-12)
        XCTAssertEqual(HarnessCanvas.pixelRatio(4, width: 1024, height: 4096), 2)
        let spec = RenderCaseSpec(style: try! JSON.parse(#"{"metadata": {"test": {"width": 1792, "height": 256, "pixelRatio": 5, "reportWidth": 256, "reportHeight": 256}}}"#))
        XCTAssertEqual(spec.pixelRatio, 8192.0 / 1792, accuracy: 1e-12)
        XCTAssertEqual(spec.reportSize?.width, 256)
        XCTAssertEqual(spec.reportSize?.height, 256)
        XCTAssertNil(RenderCaseSpec(style: try! JSON.parse(#"{"metadata": {"test": {"reportWidth": 0, "reportHeight": 9}}}"#)).reportSize)
    }

    func testReportedPartIsTheBottomLeftCorner() {
        // 3x2 image, pixel value = its index.
        let image = RGBAImage(width: 3, height: 2, pixels: (0..<6).flatMap { [UInt8($0), 0, 0, 255] })
        let corner = HarnessCanvas.reported(image, width: 2, height: 1)
        XCTAssertEqual(corner.width, 2)
        XCTAssertEqual(corner.height, 1)
        XCTAssertEqual(stride(from: 0, to: corner.pixels.count, by: 4).map { corner.pixels[$0] }, [3, 4])
        XCTAssertEqual(HarnessCanvas.reported(image, width: 10, height: 10), image, "a larger report is the whole image")
    }

    func testPitchPastMaxPitchIsClampedAsGLJSClampsIt() throws {
        let text = #"{"version": 8, "pitch": 70, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "red"}}]}"#
        let dir = try TestPaths.temporaryDirectory().path
        let spec = RenderCaseSpec(style: try JSON.parse(text))
        XCTAssertEqual(spec.maxPitch, 60)
        let (clamped, warnings) = try RenderSuite.prepare(styleText: text, spec: spec, suiteDir: dir, backend: .osmesa)
        XCTAssertEqual(clamped.camera.pitch, 60)
        XCTAssertTrue(warnings.contains { $0.contains("70") && $0.contains("maxPitch") }, "\(warnings)")
        // A case that raises maxPitch keeps its pitch.
        let raised = #"{"version": 8, "pitch": 70, "metadata": {"test": {"maxPitch": 85}}, "sources": {}, "layers": []}"#
        let (kept, none) = try RenderSuite.prepare(styleText: raised, spec: RenderCaseSpec(style: try JSON.parse(raised)), suiteDir: dir, backend: .osmesa)
        XCTAssertNil(kept.camera.pitch)
        XCTAssertEqual(none, [])
    }
}
