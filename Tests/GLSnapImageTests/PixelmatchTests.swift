import XCTest
@testable import GLSnapImage

final class PixelmatchTests: XCTestCase {
    func filled(_ w: Int, _ h: Int, _ rgba: [UInt8]) -> RGBAImage {
        RGBAImage(width: w, height: h, pixels: Array((0..<(w * h)).map { _ in rgba }.joined()))
    }

    func set(_ image: inout RGBAImage, _ x: Int, _ y: Int, _ rgba: [UInt8]) {
        let i = (y * image.width + x) * 4
        image.pixels.replaceSubrange(i..<(i + 4), with: rgba)
    }

    func testIdenticalImagesMatchAndDiffIsFadedGray() {
        let a = filled(4, 3, [0, 0, 0, 255])
        var diff: RGBAImage?
        XCTAssertEqual(pixelmatch(a, a, diff: &diff), 0)
        // Black faded to 10% over white: 255 + (0 - 255) * 0.1 = 229.5, truncated.
        XCTAssertEqual(diff?.pixels, Array((0..<12).map { _ in [229, 229, 229, 255] as [UInt8] }.joined()))
    }

    func testOneChangedPixelCountsOnceAndIsRedInDiff() {
        let a = filled(8, 8, [255, 255, 255, 255])
        var b = a
        set(&b, 3, 4, [0, 0, 0, 255])
        var diff: RGBAImage?
        XCTAssertEqual(pixelmatch(a, b, diff: &diff), 1)
        let i = (4 * 8 + 3) * 4
        XCTAssertEqual(diff.map { Array($0.pixels[i..<(i + 4)]) }, [255, 0, 0, 255])
        XCTAssertEqual(diff.map { Array($0.pixels[0..<4]) }, [255, 255, 255, 255])
    }

    func testThreshold() {
        // Gray 255 -> 250: YIQ delta = 0.5053 * 5^2 = 12.63; the limit is 35215 * t^2.
        let a = filled(5, 5, [255, 255, 255, 255])
        var b = a
        set(&b, 2, 2, [250, 250, 250, 255])
        XCTAssertEqual(pixelmatch(a, b, threshold: 0.1), 0)  // limit 352
        XCTAssertEqual(pixelmatch(a, b, threshold: 0.02), 0) // limit 14.09
        XCTAssertEqual(pixelmatch(a, b, threshold: 0.018), 1) // limit 11.41
        XCTAssertEqual(pixelmatch(a, b, threshold: 0), 1)
    }

    func testTransparentPixelsBlendOverWhite() {
        let white = filled(3, 3, [255, 255, 255, 255])
        let clear = filled(3, 3, [0, 0, 0, 0])
        XCTAssertEqual(pixelmatch(white, clear, threshold: 0), 0)
        let halfBlack = filled(3, 3, [0, 0, 0, 128])
        XCTAssertEqual(pixelmatch(white, halfBlack, threshold: 0.1), 9)
    }

    /// Black | gray | white edge at x = 4 in `a`, shifted to x = 5 in `b`.
    func edgeImages() -> (RGBAImage, RGBAImage) {
        func edge(at e: Int) -> RGBAImage {
            var img = filled(10, 10, [255, 255, 255, 255])
            for y in 0..<10 {
                for x in 0..<e { set(&img, x, y, [0, 0, 0, 255]) }
                set(&img, e, y, [128, 128, 128, 255])
            }
            return img
        }
        return (edge(at: 4), edge(at: 5))
    }

    func testAntiAliasedEdgeShiftIsNotCountedUnlessIncludeAA() {
        let (a, b) = edgeImages()
        var diff: RGBAImage?
        XCTAssertEqual(pixelmatch(a, b, threshold: 0.1, includeAA: false, diff: &diff), 0)
        let i = (3 * 10 + 4) * 4
        XCTAssertEqual(diff.map { Array($0.pixels[i..<(i + 4)]) }, [255, 255, 0, 255])
        XCTAssertEqual(pixelmatch(a, b, threshold: 0.1, includeAA: true), 20)
    }

    func testHardEdgeShiftIsCounted() {
        // Without an intermediate gray column the moved edge is a real difference.
        var a = filled(10, 10, [255, 255, 255, 255]), b = a
        for y in 0..<10 {
            for x in 0..<4 { set(&a, x, y, [0, 0, 0, 255]) }
            for x in 0..<5 { set(&b, x, y, [0, 0, 0, 255]) }
        }
        XCTAssertEqual(pixelmatch(a, b), 10)
    }
}
