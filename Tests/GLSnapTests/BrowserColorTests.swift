import Foundation
import GLSnapConformance
import GLSnapImage
import GLSnapTestSupport
import XCTest

/// The harness's canvas shows a PNG's colors as the browser converts them to sRGB.
final class BrowserColorTests: XCTestCase {
    /// integration-gljs's image/0.png carries an ICC profile (Apple, gamma 1.96 curves, primaries
    /// near sRGB's): its mid and dark tones come out lighter in sRGB.
    func testTaggedColorsAreConvertedToSRGB() throws {
        let png = [UInt8](try Data(contentsOf: try SharedFolder.require("integration-gljs/image/0.png")))
        let grays = RGBAImage(width: 3, height: 1, pixels: [0, 0, 0, 255, 64, 64, 64, 255, 255, 255, 255, 128])
        let out = BrowserColor.toSRGB(grays, png: png)
        // 64/255 ^ 1.96 = 0.0665 linear, 0.287 in sRGB: 73 (the primaries move each channel by at most 2).
        for c in 4..<7 { XCTAssertEqual(Double(out.pixels[c]), 73, accuracy: 2.5, "\(out.pixels)") }
        XCTAssertEqual(Array(out.pixels[0..<3]), [0, 0, 0])
        for c in 8..<11 { XCTAssertEqual(Double(out.pixels[c]), 255, accuracy: 2) }
        XCTAssertEqual(out.pixels[7], 255)
        XCTAssertEqual(out.pixels[11], 128, "alpha is kept")
    }

    /// gAMA 0.45455 (a 2.2 power curve) on sRGB's primaries: darker mid tones than sRGB's curve.
    func testGammaTaggedColorsAreConvertedToSRGB() throws {
        let image = RGBAImage(width: 1, height: 1, pixels: [64, 64, 64, 255])
        let png = try PNGEncoder().encode(image)
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            [0, 0, 0, UInt8(body.count)] + Array(type.utf8) + body + [0, 0, 0, 0]
        }
        let gamma = chunk("gAMA", [0, 0, 0xB1, 0x8F])
        // sRGB's chromaticities (white D65, red, green, blue), x and y times 100000.
        let srgb: [UInt32] = [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000]
        let chrm = chunk("cHRM", srgb.flatMap { v in [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] })
        for tags in [gamma, gamma + chrm] {
            let tagged = Array(png[0..<33]) + tags + Array(png[33...])
            // (64/255)^2.2 = 0.0477 linear, 0.242 in sRGB: 62.
            XCTAssertEqual(BrowserColor.toSRGB(image, png: tagged).pixels.prefix(3).map(Int.init), [62, 62, 62])
        }
        // An sRGB chunk wins over gAMA, as in the browser.
        let srgbTagged = Array(png[0..<33]) + chunk("sRGB", [0]) + gamma + Array(png[33...])
        XCTAssertEqual(BrowserColor.toSRGB(image, png: srgbTagged), image)
    }

    func testUntaggedOrSRGBTaggedImagesAreKept() throws {
        let image = RGBAImage(width: 1, height: 1, pixels: [64, 128, 192, 255])
        let untagged = try PNGEncoder().encode(image)
        XCTAssertEqual(BrowserColor.toSRGB(image, png: untagged), image)
        XCTAssertEqual(BrowserColor.toSRGB(image, png: [1, 2, 3]), image, "not a PNG: kept")
        // A truncated iCCP chunk is ignored, as the browser ignores a profile it cannot read.
        var broken = Array(untagged[0..<33])
        broken += [0, 0, 0, 40] + Array("iCCP".utf8) + Array("x".utf8) + [0, 0, 0x78, 0x9c]
        XCTAssertEqual(BrowserColor.toSRGB(image, png: broken), image)
    }
}
