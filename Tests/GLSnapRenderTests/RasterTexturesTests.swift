import XCTest
import GLSnapGL
import GLSnapImage
@testable import GLSnapRender

final class RasterTexturesTests: XCTestCase {
    private func isMipmapped(width: Int, height: Int) throws -> Bool {
        let ctx = try GLContext(backend: .osmesa)
        let image = RGBAImage(width: width, height: height, pixels: [UInt8](repeating: 128, count: width * height * 4))
        return RasterTextures().texture(for: RasterBox(image: image), context: ctx, frame: 0).mipmapped
    }

    /// Raster tiles of any size are sampled through mipmaps, as MapLibre's WebGL 2 renderer
    /// samples them (a 300x200 tile seen at a steep pitch blends to grey instead of aliasing).
    func testTilesOfAnySizeHaveMipmaps() throws {
        XCTAssertTrue(try isMipmapped(width: 256, height: 256))
        XCTAssertTrue(try isMipmapped(width: 300, height: 200))
    }
}
