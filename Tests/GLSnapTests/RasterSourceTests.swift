import XCTest
import GLSnapImage
@testable import GLSnap

final class RasterSourceTests: XCTestCase {
    private func image(_ dim: Int, _ value: (Int, Int) -> UInt8) -> RGBAImage {
        var px = [UInt8](repeating: 255, count: dim * dim * 4)
        for y in 0..<dim { for x in 0..<dim { px[(y * dim + x) * 4] = value(x, y) } }
        return RGBAImage(width: dim, height: dim, pixels: px)
    }

    func testDEMBorderCopiesEdgesThenNeighbors() throws {
        let center = image(2, { x, y in UInt8(10 + y * 2 + x) })   // 10 11 / 12 13
        var b = try FrameBuilder.bordered(dem: center)
        XCTAssertEqual(b.width, 4)
        let row = { (img: RGBAImage, y: Int) in (0..<4).map { img.pixels[(y * 4 + $0) * 4] } }
        XCTAssertEqual(row(b, 0), [10, 10, 11, 11])
        XCTAssertEqual(row(b, 1), [10, 10, 11, 11])
        XCTAssertEqual(row(b, 3), [12, 12, 13, 13])
        // The eastern neighbor's west column fills the east border; the south-east one the corner.
        FrameBuilder.backfill(&b, from: image(2, { _, y in UInt8(50 + y) }), dx: 1, dy: 0)
        FrameBuilder.backfill(&b, from: image(2, { x, y in UInt8(90 + y * 2 + x) }), dx: 1, dy: 1)
        XCTAssertEqual(row(b, 1), [10, 10, 11, 50])
        XCTAssertEqual(row(b, 2), [12, 12, 13, 51])
        XCTAssertEqual(row(b, 3), [12, 12, 13, 90])
    }

    func testDEMMustBeSquare() {
        XCTAssertThrowsError(try FrameBuilder.bordered(dem: RGBAImage(width: 4, height: 2))) { error in
            XCTAssertEqual("\(error)", "a raster-dem tile must be square (and at least 2 pixels), this one is 4x2")
        }
    }

    func testImageSourceTileHoldsAllCorners() {
        // Corners spanning a quarter of a z2 tile, inside tile 2/1/1.
        let corners = [(0.30, 0.30), (0.36, 0.30), (0.36, 0.36), (0.30, 0.36)].map { (x: $0.0, y: $0.1) }
        let tile = ImageSource.centerTile(corners)
        XCTAssertEqual(tile.description, "4/5/5")
    }

    func testUnpackVectors() {
        XCTAssertEqual(DEMEncoding.mapbox.unpack, [6553.6, 25.6, 0.1, 10000])
        XCTAssertEqual(DEMEncoding.terrarium.unpack, [256, 1, 1.0 / 256, 32768])
    }
}
