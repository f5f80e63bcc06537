import Foundation
import GLSnapImage

/// The result of comparing a render with its expected images.
package struct Comparison {
    /// Mismatched pixels / (W·H) against the best expected image; nil when none had the render's size.
    package var difference: Double?
    /// The best expected image (for the diff), or nil.
    package var best: RGBAImage?
    /// Why no comparison was possible (size mismatch, unreadable PNG), when `difference` is nil.
    package var problem: String?
}

/// Compares renders with reference PNGs by pixelmatch.
package struct ImageComparer {
    package var threshold: Double
    package var includeAA: Bool
    private let decoder = PNGDecoder()

    package init(threshold: Double, includeAA: Bool) {
        self.threshold = threshold; self.includeAA = includeAA
    }

    /// The best (lowest) mismatch of `actual` against each file of `expectedPaths`. Files that do
    /// not decode or differ in size are noted in `problem` but do not stop the others.
    package func compare(_ actual: RGBAImage, with expectedPaths: [String]) -> Comparison {
        var result = Comparison()
        var problems: [String] = []
        let pixels = Double(actual.width * actual.height)
        for path in expectedPaths {
            let expected: RGBAImage
            do {
                expected = try decoder.decode(try SuiteFiles.readBytes(path))
            } catch {
                problems.append("\((path as NSString).lastPathComponent): \(error)")
                continue
            }
            guard expected.width == actual.width, expected.height == actual.height else {
                problems.append("size \(actual.width)x\(actual.height) differs from \((path as NSString).lastPathComponent) "
                    + "\(expected.width)x\(expected.height)")
                continue
            }
            let mismatched = pixelmatch(actual, expected, threshold: threshold, includeAA: includeAA)
            let fraction = Double(mismatched) / pixels
            if result.difference.map({ fraction < $0 }) ?? true {
                result.difference = fraction
                result.best = expected
            }
            if mismatched == 0 { break }
        }
        if result.difference == nil {
            result.problem = problems.isEmpty ? "no expected image" : problems.joined(separator: "; ")
        }
        return result
    }

    /// Writes `actual.png` and, when a same-size expected image exists, `diff.png` into `folder`.
    /// Compares `image` with the expected images and records the verdict in `result`: passed at a
    /// mismatch of at most `allowed`, else failed with the reason, leaving the failure images in
    /// `folder`.
    package func judge(_ image: RGBAImage, expected: [String], allowed: Double, into result: inout CaseResult, folder: String) {
        let comparison = compare(image, with: expected)
        result.digest = ImageComparer.digest(image)
        result.difference = comparison.difference
        if let d = comparison.difference {
            result.status = d <= allowed ? .passed : .failed
            if result.status == .failed {
                result.reason = "mismatch \(SuiteReport.format(d)) > allowed \(SuiteReport.format(allowed))"
            }
        } else {
            result.reason = comparison.problem
        }
        if result.status == .failed {
            writeFailureImages(actual: image, bestExpected: comparison.best, folder: folder)
        }
    }

    /// FNV-1a (64 bits) of the size and the pixels: equal digests in two runs' reports show a change
    /// drew the same bytes (`tools/same-pixels.py` compares two reports).
    package static func digest(_ image: RGBAImage) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        for v in [image.width, image.height] { for shift in stride(from: 0, to: 32, by: 8) { mix(UInt8(truncatingIfNeeded: v >> shift)) } }
        image.pixels.withUnsafeBufferPointer { for b in $0 { mix(b) } }
        return String(h, radix: 16)
    }

    package func writeFailureImages(actual: RGBAImage, bestExpected: RGBAImage?, folder: String) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let encoder = PNGEncoder(options: .fast)
            try SuiteFiles.writeBytes(try encoder.encode(actual), to: folder + "/actual.png")
            if let expected = bestExpected {
                var diff: RGBAImage?
                _ = pixelmatch(actual, expected, threshold: threshold, includeAA: includeAA, diff: &diff)
                if let diff { try SuiteFiles.writeBytes(try encoder.encode(diff), to: folder + "/diff.png") }
            }
        } catch {
            FileHandle.standardError.write(Data("warning: could not write images to \(folder): \(error)\n".utf8))
        }
    }
}

/// A file the runner could not read or write.
package struct ConformanceIOError: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }
    package init(message: String) { self.message = message }
}
