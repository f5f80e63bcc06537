import XCTest
@testable import GLSnapImage

/// JPEG and WebP encoding, checked by decoding the output again.
final class EncoderTests: XCTestCase {
    /// Left half opaque red, right half half-transparent blue.
    private func sample() -> RGBAImage {
        var img = RGBAImage(width: 64, height: 32)
        for y in 0..<32 {
            for x in 0..<64 {
                let o = (y * 64 + x) * 4
                let px: [UInt8] = x < 32 ? [255, 0, 0, 255] : [0, 0, 255, 128]
                img.pixels.replaceSubrange(o..<o + 4, with: px)
            }
        }
        return img
    }

    func testJPEGRoundTripFlattensOverWhite() throws {
        let bytes = try JPEGEncoder(quality: 95).encode(sample())
        XCTAssertEqual(Array(bytes.prefix(3)), [0xFF, 0xD8, 0xFF])
        let back = try ImageDecoder().decode(bytes)
        XCTAssertEqual(back.width, 64)
        func px(_ x: Int, _ y: Int) -> [Int] { let o = (y * 64 + x) * 4; return back.pixels[o..<o + 4].map(Int.init) }
        // Red stays red; half-transparent blue over white becomes light blue (127, 127, 255).
        XCTAssertEqual(px(8, 16)[0], 255, accuracy: 6); XCTAssertEqual(px(8, 16)[1], 0, accuracy: 6)
        XCTAssertEqual(px(56, 16)[0], 127, accuracy: 8); XCTAssertEqual(px(56, 16)[2], 255, accuracy: 6)
        XCTAssertEqual(px(56, 16)[3], 255)
    }

    func testWebPLosslessRoundTripKeepsAlpha() throws {
        let img = sample()
        let bytes = try WebPEncoder(lossless: true).encode(img)
        XCTAssertEqual(Array(bytes.prefix(4)), Array("RIFF".utf8))
        XCTAssertEqual(try ImageDecoder().decode(bytes), img)
        let lossy = try ImageDecoder().decode(try WebPEncoder(quality: 80).encode(img))
        XCTAssertEqual(lossy.width, 64)
        XCTAssertEqual(Int(lossy.pixels[(16 * 64 + 56) * 4 + 3]), 128, accuracy: 4)
    }

    func testWebPRefusesOversizedImages() {
        XCTAssertThrowsError(try WebPEncoder().encode(RGBAImage(width: 16384, height: 1))) { e in
            XCTAssertTrue("\(e)".contains("16383"), "\(e)")
        }
    }
}
