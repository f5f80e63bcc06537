import XCTest
import Foundation
@testable import GLSnapGL

/// GLSnapGL is the one module that talks to GL: draws, uniforms, sampler and fixed-function state
/// go through its types.
final class SeamTests: XCTestCase {
    private var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Only GLSnapGL imports the C GL headers; the other modules and the tests go through it.
    func testOnlyGLSnapGLImportsCMesa() throws {
        var offenders: [String] = []
        for folder in ["Sources", "Tests"] {
            let base = root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(atPath: base.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") && !file.hasPrefix("GLSnapGL/") {
                let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
                let imports = text.split(separator: "\n").contains { line in
                    let words = line.split(separator: " ")
                    return words.count >= 2 && words.last == "CMesa" && words[words.count - 2] == "import"
                }
                if imports { offenders.append("\(folder)/\(file)") }
            }
        }
        XCTAssertEqual(offenders, [], "only Sources/GLSnapGL may import CMesa")
    }

    /// A draw that widens lines does not leave the width to the draws after it.
    func testDrawModesResetLineWidth() throws {
        let ctx = try GLContext(backend: .osmesa)
        ctx.apply(DrawModes(lineWidth: 2))
        XCTAssertEqual(ctx.currentLineWidth, 2)
        ctx.apply(DrawModes(stencil: .equal(1)))
        XCTAssertEqual(ctx.currentLineWidth, 1, "modes without a width draw 1-pixel lines")
    }

    /// Sampler states given at creation and at binding are what GL holds after, for the texture
    /// bound (not whichever texture the active unit held).
    func testSamplerStateRoundTrip() throws {
        let ctx = try GLContext(backend: .osmesa)
        let pixels = [UInt8](repeating: 255, count: 4 * 4 * 4)
        let a = Texture(context: ctx, width: 4, height: 4, pixels: pixels)
        XCTAssertEqual(a.queriedSampler(), .linear)
        let repeating = SamplerState(minify: .linear, magnify: .linear, wrapS: .repeat)
        let b = Texture(context: ctx, width: 4, height: 4, format: .r8, pixels: [UInt8](repeating: 0, count: 16), sampler: repeating)
        XCTAssertEqual(b.queriedSampler(), repeating)

        a.generateMipmaps()
        let states = [SamplerState(minify: .linear, magnify: .nearest, mipmap: .nearest), .nearest, .linear,
                      SamplerState(minify: .nearest, magnify: .linear, mipmap: .linear, wrapS: .repeat, wrapT: .repeat)]
        for state in states {
            // b is on the active unit (1) while a's state changes on unit 0.
            ctx.bind(b, unit: 1)
            ctx.bind(a, unit: 0, sampler: state)
            XCTAssertEqual(a.sampler, state)
            ctx.bind(b, unit: 1)
            XCTAssertEqual(a.queriedSampler(), state)
            XCTAssertEqual(b.queriedSampler(), repeating, "b keeps its own state")
        }
        try ctx.checkError("sampler state")
    }

    /// A program draws its index buffer with the modes given; uniforms set through their typed
    /// handles reach the shader, and the program reports the uniforms it uses.
    func testProgramDrawsIndicesWithUniforms() throws {
        let ctx = try GLContext(backend: .osmesa)
        let program = try Program(context: ctx, name: "test", vertex: """
            #version 330 core
            in vec2 a_pos;
            void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
            """, fragment: """
            #version 330 core
            uniform vec4 u_color;
            uniform float u_unused;
            out vec4 color;
            void main() { color = u_color; }
            """, attributes: ["a_pos"])
        XCTAssertEqual(program.activeUniforms, [ActiveUniform(name: "u_color", type: .vec4, count: 1)],
                       "the linker drops a uniform the shader does not read")
        let fb = try Framebuffer(context: ctx, width: 2, height: 2)
        fb.bind()
        fb.clear(r: 0, g: 0, b: 1, a: 1)
        let vertexArray = VertexArray(context: ctx, attributes: [], indices: nil)
        ctx.bind(vertexArray)
        let quad = VertexBuffer(context: ctx, data: [Float]([-1, -1, 1, -1, 1, 1, -1, 1]))
        // The lower-right triangle only: the top-left pixel keeps the clear color.
        let indices = IndexBuffer(context: ctx, indices: [0, 1, 2, 0, 2, 3])
        ctx.use(program)
        ctx.setAttribute(VertexAttribute(location: 0, components: 2, type: .float), quad)
        UniformVec4(program, "u_color").set(0, 1, 0, 1)
        UniformFloat(program, "u_unused").set(3)
        program.draw(indices: indices, count: 3, modes: DrawModes(color: .unblended))
        try ctx.checkError("draw")
        var out = [UInt8](repeating: 0, count: 16)
        try out.withUnsafeMutableBytes { try fb.read(intoStraightRGBA: $0) }
        XCTAssertEqual(Array(out[0..<4]), [0, 0, 255, 255], "top left: outside the triangle drawn")
        XCTAssertEqual(Array(out[12..<16]), [0, 255, 0, 255], "bottom right: drawn in u_color")
    }
}
