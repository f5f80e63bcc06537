import XCTest
import GLSnapGL
@testable import GLSnapRender

/// Scissor boxes in place of tile clipping masks (`TileScissor`): which tiles get one, and that a
/// box holds exactly the pixels the tile's stencil mask marks.
final class TileScissorTests: XCTestCase {
    private let extent = 8192.0

    /// A column-major tile matrix whose square `0...extent` lands on window `x0...x1`, `y0...y1`
    /// (GL's y up) of a `width` × `height` framebuffer, with clip w `w`.
    private func matrix(x0: Double, x1: Double, y0: Double, y1: Double, width: Int, height: Int, w: Double = 1) -> [Float] {
        func clip(_ window: Double, _ size: Int) -> Double { (window / Double(size) * 2 - 1) * w }
        var m = [Float](repeating: 0, count: 16)
        m[0] = Float((clip(x1, width) - clip(x0, width)) / extent)
        m[12] = Float(clip(x0, width))
        m[5] = Float((clip(y1, height) - clip(y0, height)) / extent)
        m[13] = Float(clip(y0, height))
        m[10] = 1
        m[15] = Float(w)
        return m
    }

    func testBoxHoldsThePixelsWhoseCentersTheSquareCovers() throws {
        // Columns 10.5 ... 73.5 lie in [10.3, 74.3); rows 6.5 ... 37.5 in [5.7, 37.7).
        let m = matrix(x0: 10.3, x1: 74.3, y0: 5.7, y1: 37.7, width: 100, height: 50, w: 3)
        XCTAssertEqual(TileScissor.box(m, extent: extent, width: 100, height: 50), ScissorBox(x: 10, y: 6, width: 64, height: 32))
        // Tile matrices run y down the screen: the square's edges come in either order.
        let flipped = matrix(x0: 10.3, x1: 74.3, y0: 37.7, y1: 5.7, width: 100, height: 50)
        XCTAssertEqual(TileScissor.box(flipped, extent: extent, width: 100, height: 50), ScissorBox(x: 10, y: 6, width: 64, height: 32))
    }

    func testBoxIsClampedToTheFramebuffer() throws {
        let m = matrix(x0: -500.2, x1: 60.2, y0: 40.2, y1: 9000.2, width: 100, height: 50)
        XCTAssertEqual(TileScissor.box(m, extent: extent, width: 100, height: 50), ScissorBox(x: 0, y: 40, width: 60, height: 10))
        let outside = matrix(x0: 200.2, x1: 300.2, y0: 0.2, y1: 40.2, width: 100, height: 50)
        let box = try XCTUnwrap(TileScissor.box(outside, extent: extent, width: 100, height: 50))
        XCTAssertEqual(box.width * box.height, 0)
    }

    func testTurnedTiltedOrAmbiguousTilesKeepTheirMasks() {
        let m = matrix(x0: 10.3, x1: 74.3, y0: 5.7, y1: 37.7, width: 100, height: 50)
        var turned = m
        turned[1] = 1e-7
        XCTAssertNil(TileScissor.box(turned, extent: extent, width: 100, height: 50), "x drives y: a bearing")
        var tilted = m
        tilted[7] = 1e-6
        XCTAssertNil(TileScissor.box(tilted, extent: extent, width: 100, height: 50), "w varies: a pitch")
        var beyondFar = m
        beyondFar[14] = 2
        XCTAssertNil(TileScissor.box(beyondFar, extent: extent, width: 100, height: 50), "outside the depth range")
        // An odd-sized view puts edges on pixel centers: the rasterizer's tie rule decides those.
        let onCenter = matrix(x0: 10.5, x1: 74.3, y0: 5.7, y1: 37.7, width: 100, height: 50)
        XCTAssertNil(TileScissor.box(onCenter, extent: extent, width: 100, height: 50))
        let nearCenter = matrix(x0: 10.3, x1: 74.3, y0: 5.7, y1: 37.505, width: 100, height: 50)
        XCTAssertNil(TileScissor.box(nearCenter, extent: extent, width: 100, height: 50))
    }

    func testOverlappingOrTooManyTilesKeepTheirMasks() {
        let left = matrix(x0: 0.2, x1: 50.2, y0: 0.2, y1: 50.2, width: 100, height: 50)
        let right = matrix(x0: 50.2, x1: 100.2, y0: 0.2, y1: 50.2, width: 100, height: 50)
        let parent = matrix(x0: 0.2, x1: 100.2, y0: 0.2, y1: 100.2, width: 100, height: 50)
        XCTAssertEqual(TileScissor.boxes([left, right], extent: extent, width: 100, height: 50)?.count, 2, "neighbours share no pixel")
        XCTAssertNil(TileScissor.boxes([left, right, parent], extent: extent, width: 100, height: 50))
        let many = (0..<256).map { i in matrix(x0: 0.2 + Double(i), x1: 1.2 + Double(i), y0: 0.2, y1: 1.2, width: 300, height: 50) }
        XCTAssertEqual(TileScissor.boxes(Array(many.prefix(255)), extent: extent, width: 300, height: 50)?.count, 255)
        XCTAssertNil(TileScissor.boxes(many, extent: extent, width: 300, height: 50), "stencil ids run out at 255")
    }

    /// On the rasterizer itself: a square drawn as a stencil mask and the box for it mark the same
    /// pixels, for edges anywhere but within `edgeMargin` of a pixel center (some just outside it).
    func testBoxMarksTheSamePixelsAsTheStencilMask() throws {
        let renderer = try MapRenderer(backend: .osmesa)
        let context = renderer.context
        let width = 61, height = 47
        let framebuffer = try Framebuffer(context: context, width: width, height: height)
        framebuffer.bind()
        let mask = try renderer.programs.program(ClippingMaskProgram.self)
        context.use(mask.program)
        context.setAttribute(VertexAttribute(location: 0, components: 2, type: .int16), renderer.tileQuad)
        let everything = matrix(x0: -10, x1: Double(width) + 10, y0: -10, y1: Double(height) + 10, width: width, height: height)
        func image(_ draw: () -> Void) throws -> [UInt8] {
            framebuffer.clear(r: 0, g: 0, b: 0, a: 1)
            draw()
            var out = [UInt8](repeating: 0, count: width * height * 4)
            try out.withUnsafeMutableBytes { try framebuffer.read(intoStraightRGBA: $0) }
            return out
        }
        var seeded = SplitMix(seed: 19)
        var checked = 0
        let margin = TileScissor.edgeMargin
        for i in 0..<200 {
            // Half the edges are random, half just outside the margin on either side of a center.
            func edge(_ size: Int) -> Double {
                let center = Double(Int.random(in: -3...(size + 3), using: &seeded)) + 0.5
                if i % 2 == 0 { return center + Double.random(in: -0.5...0.5, using: &seeded) }
                return center + (Bool.random(using: &seeded) ? 1 : -1) * margin * 1.5
            }
            let m = matrix(x0: edge(width), x1: edge(width), y0: edge(height), y1: edge(height),
                           width: width, height: height, w: Double.random(in: 0.5...4, using: &seeded))
            guard let box = TileScissor.box(m, extent: extent, width: width, height: height) else { continue }
            let masked = try image {
                mask.uniforms.matrix.set(m)
                mask.program.draw(indices: renderer.quadIndices, modes: DrawModes(
                    stencil: StencilMode(function: .always, reference: 1, writeMask: 0xFF, pass: .replace), color: .disabled))
                mask.uniforms.matrix.set(everything)
                mask.program.draw(indices: renderer.quadIndices, modes: DrawModes(clip: .stencil(.equal(1)), color: .unblended))
                framebuffer.clearStencil()
            }
            let scissored = try image {
                mask.uniforms.matrix.set(everything)
                mask.program.draw(indices: renderer.quadIndices, modes: DrawModes(clip: .scissor(box), color: .unblended))
            }
            XCTAssertEqual(masked, scissored, "square \(m[12]), \(m[13]) scale \(m[0]), \(m[5]) w \(m[15]): box \(box)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 150, "most squares get a box")
        // Scissoring is off again for a draw without a clip: the whole quad is drawn.
        let whole = try image {
            mask.uniforms.matrix.set(everything)
            mask.program.draw(indices: renderer.quadIndices, modes: DrawModes(clip: .scissor(ScissorBox(x: 0, y: 0, width: 1, height: 1)), color: .unblended))
            mask.program.draw(indices: renderer.quadIndices, modes: DrawModes(color: .unblended))
        }
        XCTAssertTrue(stride(from: 0, to: whole.count, by: 4).allSatisfy { whole[$0] == 255 })
    }

    /// The colors too: a blended fill with colors varying over its triangles, drawn through a
    /// box, gives the bytes it gives through the tile's mask.
    func testScissoredFillHasTheMaskedFillsColors() throws {
        let renderer = try MapRenderer(backend: .osmesa)
        let context = renderer.context
        let width = 96, height = 80
        let framebuffer = try Framebuffer(context: context, width: width, height: height)
        framebuffer.bind()
        let mask = try renderer.programs.program(ClippingMaskProgram.self)
        let fill = try renderer.programs.program(FillProgram.self)
        let tile = matrix(x0: 7.3, x1: 88.8, y0: 70.6, y1: 4.2, width: width, height: height)
        let beyond = matrix(x0: -20, x1: 110, y0: 95, y1: -15, width: width, height: height)
        let box = try XCTUnwrap(TileScissor.box(tile, extent: extent, width: width, height: height))
        // Premultiplied colors per corner of the quad, half transparent.
        let colors = VertexBuffer(context: context, data: [Float]([0.5, 0.1, 0.05, 0.6, 0.02, 0.4, 0.3, 0.5,
                                                                   0.3, 0.3, 0.01, 0.7, 0.1, 0.05, 0.35, 0.45]))
        func image(_ clip: TileClip) throws -> [UInt8] {
            framebuffer.clear(r: 0.8, g: 0.78, b: 0.75, a: 1)
            if case .stencil = clip {
                context.use(mask.program)
                context.setAttribute(VertexAttribute(location: 0, components: 2, type: .int16), renderer.tileQuad)
                mask.uniforms.matrix.set(tile)
                mask.program.draw(indices: renderer.quadIndices, modes: DrawModes(
                    stencil: StencilMode(function: .always, reference: 1, writeMask: 0xFF, pass: .replace), color: .disabled))
            }
            context.use(fill.program)
            context.setAttribute(VertexAttribute(location: ProgramSet.location("a_pos", in: .fill), components: 2, type: .int16), renderer.tileQuad)
            context.setAttribute(VertexAttribute(location: ProgramSet.location("a_color", in: .fill), components: 4, type: .float), colors)
            context.setAttribute(ProgramSet.location("a_opacity", in: .fill), constant: [0.9])
            fill.uniforms.matrix.set(beyond)
            fill.program.draw(indices: renderer.quadIndices, modes: DrawModes(clip: clip, color: .alphaBlended))
            framebuffer.clearStencil()
            var out = [UInt8](repeating: 0, count: width * height * 4)
            try out.withUnsafeMutableBytes { try framebuffer.read(intoStraightRGBA: $0) }
            return out
        }
        let masked = try image(.stencil(.equal(1)))
        let scissored = try image(.scissor(box))
        let differing = stride(from: 0, to: masked.count, by: 4).filter { masked[$0..<$0 + 4] != scissored[$0..<$0 + 4] }
        XCTAssertEqual(differing.count, 0, "pixels differ, first at \(differing.first.map { ($0 / 4 % width, $0 / 4 / width) } as Any)")
    }
}

/// A seeded generator, so a failing square can be drawn again.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
