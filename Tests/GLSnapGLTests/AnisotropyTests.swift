import XCTest
@testable import GLSnapGL

/// Anisotropic filtering (GL JS's for pitched raster tiles): a sampler's anisotropy reaches GL,
/// capped by the driver's maximum, and keeps a squeezed texture's detail where plain mipmapping
/// blurs it.
final class AnisotropyTests: XCTestCase {
    private func anisotropy(of texture: Texture, _ ctx: GLContext) -> Int { texture.queriedAnisotropy() }

    func testTheSamplersAnisotropyReachesGLCappedByTheDriver() throws {
        let ctx = try GLContext(backend: .osmesa)
        try XCTSkipIf(ctx.maxAnisotropy <= 1, "the driver has no anisotropic filtering")
        let t = Texture(context: ctx, width: 8, height: 8, pixels: [UInt8](repeating: 255, count: 8 * 8 * 4))
        t.generateMipmaps()
        XCTAssertEqual(anisotropy(of: t, ctx), 1)
        ctx.bind(t, unit: 0, sampler: SamplerState(minify: .linear, magnify: .linear, mipmap: .nearest, anisotropy: 4))
        XCTAssertEqual(anisotropy(of: t, ctx), (min(4, ctx.maxAnisotropy)))
        ctx.bind(t, unit: 0, sampler: SamplerState(minify: .linear, magnify: .linear, mipmap: .nearest, anisotropy: 1_000))
        XCTAssertEqual(anisotropy(of: t, ctx), (ctx.maxAnisotropy))
        ctx.bind(t, unit: 0, sampler: SamplerState(minify: .linear, magnify: .linear, mipmap: .nearest))
        XCTAssertEqual(anisotropy(of: t, ctx), 1)
        // Given at creation.
        let u = Texture(context: ctx, width: 8, height: 8, pixels: [UInt8](repeating: 255, count: 8 * 8 * 4),
                        sampler: SamplerState(minify: .linear, magnify: .linear, anisotropy: 2))
        XCTAssertEqual(anisotropy(of: u, ctx), (min(2, ctx.maxAnisotropy)))
    }
}
