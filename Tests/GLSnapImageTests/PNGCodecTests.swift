import XCTest
import GLSnapTestSupport
@testable import GLSnapImage

final class PNGCodecTests: XCTestCase {
    /// A deterministic image with gradients, noise and varying alpha.
    func sampleImage(width: Int = 37, height: Int = 23) -> RGBAImage {
        var px = [UInt8](repeating: 0, count: width * height * 4)
        var seed: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let i = (y * width + x) * 4
                px[i] = UInt8(x * 255 / width); px[i + 1] = UInt8(y * 255 / height)
                px[i + 2] = UInt8(seed >> 24); px[i + 3] = UInt8((x + y) * 5 % 256)
            }
        }
        return RGBAImage(width: width, height: height, pixels: px)
    }

    func testRoundTripEveryFilterAndLevel() throws {
        let image = sampleImage()
        for filter in PNGEncoder.Filter.allCases {
            for level in [0, 1, 6, 9] {
                let bytes = try PNGEncoder(options: .init(compressionLevel: level, filter: filter)).encode(image)
                XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
                XCTAssertEqual(try PNGDecoder().decode(bytes), image, "filter \(filter) level \(level)")
            }
        }
    }

    func testLevelZeroIsLargerThanLevelNine() throws {
        let image = RGBAImage(width: 64, height: 64, pixels: [UInt8](repeating: 200, count: 64 * 64 * 4))
        let stored = try PNGEncoder(options: .init(compressionLevel: 0, filter: .none)).encode(image)
        let packed = try PNGEncoder(options: .init(compressionLevel: 9)).encode(image)
        XCTAssertGreaterThan(stored.count, 64 * 64 * 4)
        XCTAssertLessThan(packed.count, 200)
    }

    func testDecodesGrayToRGBA() throws {
        let png = HandPNG.file(width: 2, height: 2, bitDepth: 8, colorType: 0, rows: [[0, 255], [128, 64]])
        let image = try PNGDecoder().decode(png)
        XCTAssertEqual(image.width, 2); XCTAssertEqual(image.height, 2)
        XCTAssertEqual(image.pixels, [0, 0, 0, 255, 255, 255, 255, 255, 128, 128, 128, 255, 64, 64, 64, 255])
    }

    func testDecodesPaletteWithTransparencyToStraightAlpha() throws {
        let plte = HandPNG.chunk("PLTE", [255, 0, 0, 0, 0, 255])
        let trns = HandPNG.chunk("tRNS", [128])
        let png = HandPNG.file(width: 2, height: 1, bitDepth: 8, colorType: 3, extra: plte + trns, rows: [[0, 1]])
        let image = try PNGDecoder().decode(png)
        XCTAssertEqual(image.pixels, [255, 0, 0, 128, 0, 0, 255, 255])
    }

    func testCorruptInputThrows() {
        let good = HandPNG.file(width: 2, height: 2, bitDepth: 8, colorType: 0, rows: [[0, 255], [128, 64]])
        var badCRC = good
        badCRC[20] ^= 0xFF // inside IHDR data
        let cases: [(String, [UInt8])] = [
            ("empty", []), ("not a PNG", Array("hello world, not a png".utf8)),
            ("truncated", Array(good.prefix(good.count - 20))), ("bad IHDR CRC", badCRC),
            ("signature only", Array(good.prefix(8))),
        ]
        for (name, bytes) in cases {
            XCTAssertThrowsError(try PNGDecoder().decode(bytes), name) { error in
                guard case ImageError.pngDecode = error else { return XCTFail("\(name): \(error)") }
            }
        }
    }

    func testSizeLimitRefusesBeforeDecoding() throws {
        let png = try PNGEncoder().encode(RGBAImage(width: 100, height: 10))
        let limits = PNGDecoder.Limits(maxDimension: 64)
        XCTAssertThrowsError(try PNGDecoder(limits: limits).decode(png)) { error in
            XCTAssertEqual(error as? ImageError, .imageTooLarge(width: 100, height: 10, limits: limits))
        }
        let byteLimits = PNGDecoder.Limits(maxDimension: 1000, maxBytes: 3999)
        XCTAssertThrowsError(try PNGDecoder(limits: byteLimits).decode(png))
        XCTAssertEqual(try PNGDecoder(limits: .init(maxDimension: 100, maxBytes: 4000)).decode(png).width, 100)
    }

    func testDecodesSharedExpectedImage() throws {
        let data = try Data(contentsOf: try SharedFolder.require("maps/chicago-bright-z14/expected.png"))
        let bytes = [UInt8](data)
        // Width and height straight from the IHDR chunk.
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        let image = try PNGDecoder().decode(bytes)
        XCTAssertEqual(image.width, width); XCTAssertEqual(image.height, height)
        XCTAssertEqual(try PNGDecoder().decode(try PNGEncoder(options: .fast).encode(image)), image)
    }

    /// The fast preset writes opaque images as RGB (color type 2) and others as RGBA (6); both
    /// decode to the same pixels. Sizes cover the alpha scan's eight-byte words and its tail.
    func testFastPresetWritesOpaqueImagesAsRGB() throws {
        for (width, height) in [(1, 1), (3, 1), (37, 23), (300, 20)] {
            var opaque = sampleImage(width: width, height: height)
            for i in stride(from: 3, to: opaque.pixels.count, by: 4) { opaque.pixels[i] = 255 }
            for level in [1, 2] {
                let options = PNGEncoder.Options(compressionLevel: level, filter: .none)
                let rgb = try PNGEncoder(options: options).encode(opaque)
                XCTAssertEqual(rgb[25], 2, "\(width)x\(height) level \(level): color type")
                XCTAssertEqual(try PNGDecoder().decode(rgb), opaque)
                // One translucent pixel, first, in the middle or last, makes it RGBA.
                for at in Set([0, opaque.pixels.count / 8, opaque.pixels.count / 4 - 1]) {
                    var translucent = opaque
                    translucent.pixels[at * 4 + 3] = 254
                    let rgba = try PNGEncoder(options: options).encode(translucent)
                    XCTAssertEqual(rgba[25], 6, "\(width)x\(height) translucent pixel \(at): color type")
                    XCTAssertEqual(try PNGDecoder().decode(rgba), translucent)
                }
            }
        }
    }

    /// The fast preset's one pass (pack RGB, check alpha) gives the scanlines the two passes gave,
    /// and nil for an image with a pixel that is not opaque in any row, group of four or tail.
    func testOpaqueScanlinesAreTheRGBScanlines() throws {
        for (width, height) in [(1, 1), (3, 2), (4, 1), (37, 23), (300, 20)] {
            var opaque = sampleImage(width: width, height: height)
            for i in stride(from: 3, to: opaque.pixels.count, by: 4) { opaque.pixels[i] = 255 }
            XCTAssertEqual(FastPNG.opaqueScanlines(opaque), FastPNG.scanlines(opaque, rgb: true), "\(width)x\(height)")
            for at in Set([0, width - 1, opaque.pixels.count / 8, opaque.pixels.count / 4 - 1]) {
                var translucent = opaque
                translucent.pixels[at * 4 + 3] = 0
                XCTAssertNil(FastPNG.opaqueScanlines(translucent), "\(width)x\(height) translucent pixel \(at)")
            }
        }
    }
}
