import GLSnapImage
import XCTest

/// One format-to-encoder choice for every front end: each format's bytes are its encoder's.
final class ImageEncoderTests: XCTestCase {
    private func image() -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: 37 * 23 * 4)
        for i in 0..<(37 * 23) { pixels[i * 4] = UInt8(i % 256); pixels[i * 4 + 1] = UInt8((i * 7) % 256); pixels[i * 4 + 2] = 90; pixels[i * 4 + 3] = 255 }
        return RGBAImage(width: 37, height: 23, pixels: pixels)
    }

    func testNamesAndExtensions() {
        XCTAssertEqual(ImageFormat(name: "png"), .png)
        XCTAssertEqual(ImageFormat(name: "JPG"), .jpeg)
        XCTAssertEqual(ImageFormat(name: "jpeg"), .jpeg)
        XCTAssertEqual(ImageFormat(name: "WebP"), .webp)
        XCTAssertNil(ImageFormat(name: "tiff"))
        XCTAssertNil(ImageFormat(name: ""))
        XCTAssertEqual(ImageFormat.jpeg.contentType, "image/jpeg")
        XCTAssertEqual(ImageFormat.jpeg.archiveName, "jpg")
        XCTAssertEqual(ImageFormat.webp.archiveName, "webp")
        XCTAssertEqual(ImageFormat.jpeg.qualities, 1...100)
        XCTAssertEqual(ImageFormat.webp.qualities, 0...100)
        XCTAssertNil(ImageFormat.png.qualities)
    }

    func testEachFormatIsItsEncoder() throws {
        let img = image()
        XCTAssertEqual(try ImageEncoder(format: .png).encode(img), try PNGEncoder().encode(img))
        XCTAssertEqual(try ImageEncoder(format: .png, png: .fast).encode(img), try PNGEncoder(options: .fast).encode(img))
        XCTAssertEqual(try ImageEncoder(format: .jpeg).encode(img), try JPEGEncoder().encode(img))
        XCTAssertEqual(try ImageEncoder(format: .jpeg, quality: 80).encode(img), try JPEGEncoder(quality: 80).encode(img))
        XCTAssertEqual(try ImageEncoder(format: .webp).encode(img), try WebPEncoder().encode(img))
        XCTAssertEqual(try ImageEncoder(format: .webp, quality: 0).encode(img), try WebPEncoder(quality: 0).encode(img))
        // The magic numbers, so a swapped case cannot pass.
        XCTAssertEqual(Array(try ImageEncoder(format: .png).encode(img).prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        XCTAssertEqual(Array(try ImageEncoder(format: .jpeg).encode(img).prefix(2)), [0xFF, 0xD8])
        XCTAssertEqual(Array(try ImageEncoder(format: .webp).encode(img)[8..<12]), Array("WEBP".utf8))
    }

    func testPNGLevelChoosesTheFilters() {
        // As the server, bench and the C ABI chose them: no filter (the fast path) up to level 2.
        XCTAssertEqual(PNGEncoder.Options(level: 1), .fast)
        XCTAssertEqual(PNGEncoder.Options(level: 2).filter, .none)
        XCTAssertEqual(PNGEncoder.Options(level: 3).filter, .all)
        XCTAssertEqual(PNGEncoder.Options(level: 6), .standard)
        XCTAssertEqual(PNGEncoder.Options.levels, 0...9)
    }
}
