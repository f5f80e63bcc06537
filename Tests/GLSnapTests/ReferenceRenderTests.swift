import Foundation
import XCTest
import GLSnap
import GLSnapConformance
import GLSnapImage
import GLSnapStyle
import GLSnapTestSupport

/// The project's own render references: `References/<case>/style.json` (a render-suite style:
/// `metadata.test` gives size, pixel ratio and operations, as in the shared suites) beside
/// `expected.png`, a reviewed image of glsnap's output. Data is under `References/data`,
/// `References/tiles` and `References/images` (`local://` names them); glyphs and the sprite are the
/// example's (`examples/chicago`). Nothing here needs ../shared, so a render regression shows in any
/// checkout. `metadata.reference.pieceSize` draws a case in pieces of that many pixels.
///
/// The comparison is exact: any pixel whose bytes differ fails the case, and `actual.png` and
/// `diff.png` are written to `.build/reference-failures/<case>/` (named in the failure).
/// `GLSNAP_UPDATE_EXPECTED=1` writes each case's `expected.png` from this build instead; the
/// re-recorded images must be looked at (each against its style) before they are committed.
final class ReferenceRenderTests: XCTestCase {
    static let references = TestRepository.root.appendingPathComponent("Tests/GLSnapTests/References")
    static let failures = TestRepository.root.appendingPathComponent(".build/reference-failures")

    /// The case folders (those holding a style.json), sorted.
    static func cases() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: references.path).filter {
            FileManager.default.fileExists(atPath: references.appendingPathComponent($0 + "/style.json").path)
        }.sorted()
    }

    /// Draws one case as the conformance runner prepares it (RenderSuite.prepare).
    static func render(_ name: String) throws -> RGBAImage {
        let folder = references.appendingPathComponent(name)
        let text = try String(contentsOf: folder.appendingPathComponent("style.json"), encoding: .utf8)
        let style = try JSON.parse(text)
        let spec = RenderCaseSpec(style: style)
        guard spec.unsupported.isEmpty else {
            throw ConformanceIOError(message: "\(name): \(spec.unsupported.joined(separator: "; "))")
        }
        var limits = Limits.default
        if let side = style["metadata"]?["reference"]?["pieceSize"]?.numberValue { limits.pieceSize = Int(side) }
        let (snapshotter, warnings) = try RenderSuite.prepare(styleText: text, spec: spec, suiteDir: references.path,
                                                               backend: .osmesa, limits: limits)
        let snapshot = try snapshotter.snapshot()
        // A reference must draw everything it names: a missing glyph range or tile is a broken case.
        let all = warnings + snapshot.warnings
        guard all.isEmpty else { throw ConformanceIOError(message: "\(name) drew with warnings: \(all)") }
        return snapshot.image
    }

    /// How many pixels of `a` and `b` (same size) differ in any byte.
    static func differingPixels(_ a: RGBAImage, _ b: RGBAImage) -> Int {
        var n = 0
        a.pixels.withUnsafeBufferPointer { p in
            b.pixels.withUnsafeBufferPointer { q in
                var i = 0
                while i < p.count {
                    if p[i] != q[i] || p[i + 1] != q[i + 1] || p[i + 2] != q[i + 2] || p[i + 3] != q[i + 3] { n += 1 }
                    i += 4
                }
            }
        }
        return n
    }

    /// nil when `name` draws its expected.png exactly; else what differed, with the failure images written.
    static func check(_ name: String) throws -> String? {
        let image = try render(name)
        let expectedPath = references.appendingPathComponent(name + "/expected.png").path
        let out = failures.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: out)
        let expected = try PNGDecoder().decode(try SuiteFiles.readBytes(expectedPath))
        // Threshold 0 with anti-aliased pixels counted: the diff image marks every changed pixel.
        let comparer = ImageComparer(threshold: 0, includeAA: true)
        guard expected.width == image.width, expected.height == image.height else {
            comparer.writeFailureImages(actual: image, bestExpected: nil, folder: out.path)
            return "\(name): drew \(image.width)x\(image.height), expected.png is \(expected.width)x\(expected.height); actual.png in \(out.path)"
        }
        let differing = differingPixels(image, expected)
        guard differing > 0 else { return nil }
        comparer.writeFailureImages(actual: image, bestExpected: expected, folder: out.path)
        return "\(name): \(differing) of \(image.width * image.height) pixels differ from expected.png; actual.png and diff.png in \(out.path)"
    }

    func testReferencesDrawTheirExpectedImages() throws {
        let names = try Self.cases()
        XCTAssertGreaterThanOrEqual(names.count, 20, "references missing under \(Self.references.path)")
        if ProcessInfo.processInfo.environment["GLSNAP_UPDATE_EXPECTED"] == "1" {
            for name in names {
                let png = try PNGEncoder().encode(try Self.render(name))
                try SuiteFiles.writeBytes(png, to: Self.references.appendingPathComponent(name + "/expected.png").path)
            }
            throw XCTSkip("GLSNAP_UPDATE_EXPECTED=1: wrote \(names.count) expected.png files; review each before committing")
        }
        for name in names {
            do {
                if let problem = try Self.check(name) { XCTFail(problem) }
            } catch {
                XCTFail("\(name): \(error)")
            }
        }
    }

    /// The check itself: an image one colour step off in a single pixel fails and leaves its diff image.
    func testOnePixelOneStepOffIsAFailure() throws {
        let name = try XCTUnwrap(try Self.cases().first)
        var image = try Self.render(name)
        let expected = image
        image.pixels[0] = image.pixels[0] == 255 ? 254 : image.pixels[0] + 1
        XCTAssertEqual(Self.differingPixels(image, expected), 1)
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        ImageComparer(threshold: 0, includeAA: true).writeFailureImages(actual: image, bestExpected: expected, folder: dir.path)
        let diff = try PNGDecoder().decode(try SuiteFiles.readBytes(dir.appendingPathComponent("diff.png").path))
        XCTAssertEqual(diff.width, image.width)
        // The changed pixel is marked red (pixelmatch's differing colour), its neighbour is not.
        XCTAssertEqual(Array(diff.pixels[0..<3]), [255, 0, 0])
        XCTAssertNotEqual(Array(diff.pixels[4..<7]), [255, 0, 0])
    }
}
