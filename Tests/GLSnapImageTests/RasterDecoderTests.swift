import XCTest
@testable import GLSnapImage

final class RasterDecoderTests: XCTestCase {
    /// A 3x2 lossless WebP (made with Pillow, exact=True) whose pixels are listed below.
    static let webp: [UInt8] = [82, 73, 70, 70, 78, 0, 0, 0, 87, 69, 66, 80, 86, 80, 56, 76, 65, 0, 0, 0, 47, 2, 64, 0, 16,
        47, 64, 144, 109, 179, 204, 97, 94, 247, 119, 185, 7, 153, 180, 77, 233, 57, 255, 122, 102, 173, 138, 26, 16, 128,
        28, 21, 188, 245, 47, 105, 20, 182, 109, 131, 148, 246, 53, 157, 190, 128, 131, 248, 234, 122, 235, 214, 219, 3, 8,
        72, 200, 148, 60, 242, 69, 68, 255, 35, 22, 0]
    /// A 16x8 JPEG (quality 95) filled with rgb(200, 40, 90).
    static let jpeg: [UInt8] = hex("ffd8ffe000104a46494600010100000100010000ffdb0043000201010101010201010102020202020403020202020504040304060506060605060606070908060709070606080b08090a0a0a0a0a06080b0c0b0a0c090a0a0affdb004301020202020202050303050a0706070a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0affc00011080008001003012200021101031101ffc4001f0000010501010101010100000000000000000102030405060708090a0bffc400b5100002010303020403050504040000017d01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9faffc4001f0100030101010101010101010000000000000102030405060708090a0bffc400b51100020102040403040705040400010277000102031104052131061241510761711322328108144291a1b1c109233352f0156272d10a162434e125f11718191a262728292a35363738393a434445464748494a535455565758595a636465666768696a737475767778797a82838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9faffda000c03010002110311003f00f9de8a28ae73fd303fffd9")

    static func hex(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        var i = s.startIndex
        while i < s.endIndex {
            let j = s.index(i, offsetBy: 2)
            out.append(UInt8(s[i..<j], radix: 16) ?? 0)
            i = j
        }
        return out
    }

    func testWebPLosslessPixelsExact() throws {
        let image = try WebPDecoder().decode(Self.webp)
        XCTAssertEqual(image.width, 3)
        XCTAssertEqual(image.height, 2)
        XCTAssertEqual(Array(image.pixels[0..<8]), [255, 0, 0, 255, 0, 255, 0, 128])
        XCTAssertEqual(Array(image.pixels[12..<16]), [10, 20, 30, 255])
        XCTAssertEqual(Array(image.pixels[20..<24]), [1, 2, 3, 4])
    }

    func testJPEGSolidColor() throws {
        let image = try JPEGDecoder().decode(Self.jpeg)
        XCTAssertEqual(image.width, 16)
        XCTAssertEqual(image.height, 8)
        for p in stride(from: 0, to: image.pixels.count, by: 4) {
            XCTAssertLessThanOrEqual(abs(Int(image.pixels[p]) - 200), 3)
            XCTAssertLessThanOrEqual(abs(Int(image.pixels[p + 1]) - 40), 3)
            XCTAssertLessThanOrEqual(abs(Int(image.pixels[p + 2]) - 90), 3)
            XCTAssertEqual(image.pixels[p + 3], 255)
        }
    }

    func testSniffing() throws {
        XCTAssertEqual(ImageDecoder.format(of: Self.webp), .webp)
        XCTAssertEqual(ImageDecoder.format(of: Self.jpeg), .jpeg)
        XCTAssertEqual(try ImageDecoder().decode(Self.webp).width, 3)
        XCTAssertThrowsError(try ImageDecoder().decode([0x3C, 0x68, 0x74, 0x6D, 0x6C])) { error in
            XCTAssertEqual(error as? ImageError, .unknownFormat(prefix: [0x3C, 0x68, 0x74, 0x6D, 0x6C]))
        }
    }

    func testTruncatedInputsThrow() {
        XCTAssertThrowsError(try JPEGDecoder().decode(Array(Self.jpeg.prefix(40)))) { error in
            guard case .jpegDecode? = error as? ImageError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try WebPDecoder().decode(Array(Self.webp.prefix(30)))) { error in
            guard case .webpDecode? = error as? ImageError else { return XCTFail("\(error)") }
        }
    }

    func testHeaderOverLimitsThrowsBeforeDecoding() {
        let small = PNGDecoder.Limits(maxDimension: 8)
        XCTAssertThrowsError(try JPEGDecoder(limits: small).decode(Self.jpeg)) { error in
            XCTAssertEqual(error as? ImageError, .imageTooLarge(width: 16, height: 8, limits: small, format: "JPEG"))
            // The message names the format, and no API a user of the command line cannot reach.
            XCTAssertTrue("\(error)".hasPrefix("JPEG image of 16x8 pixels exceeds"), "\(error)")
            XCTAssertFalse("\(error)".contains("PNGDecoder"), "\(error)")
        }
    }
}
