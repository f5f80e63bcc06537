import GLSnapGL
import GLSnapRender

/// Swift versions of the custom layers MapLibre GL JS's render-test harness adds with
/// `["addCustomLayer", name, before?]` (its fixtures, in run_render_tests.ts): the same geometry,
/// shaders' output and colours, drawn through `CustomLayer`.
package enum HarnessCustomLayers {
    /// The harness's layer `name`; nil for one not ported.
    package static func layer(named name: String) -> (any CustomLayer)? {
        switch name {
        case "null-island": NullIsland()
        case "tent-3d": Tent3D()
        default: nil
        }
    }

    static let version = "#version 330 core\n"
    /// Opaque red, as both harness layers draw.
    static let red = version + """
        out vec4 fragColor;
        void main() { fragColor = vec4(1.0, 0.0, 0.0, 1.0); }
        """
}

/// "null-island": a 20-pixel red point at Mercator (0.5, 0.5), longitude and latitude 0 ("2d").
struct NullIsland: CustomLayer {
    var renderingMode: CustomLayerRenderingMode { .flat }

    func makeRenderer(context: GLContext) throws -> any CustomLayerRenderer {
        let vertex = HarnessCustomLayers.version + """
            in vec3 aPos;
            uniform mat4 u_matrix;
            void main() {
                gl_Position = u_matrix * vec4(aPos, 1.0);
                gl_PointSize = 20.0;
            }
            """
        let program = try Program(context: context, name: "null-island", vertex: vertex, fragment: HarnessCustomLayers.red,
                                  attributes: ["aPos"])
        return Renderer(program: program, matrix: UniformMat4(program, "u_matrix"),
                        point: VertexBuffer(context: context, data: [Float]([0.5, 0.5, 0])))
    }

    final class Renderer: CustomLayerRenderer {
        let program: Program
        let matrix: UniformMat4
        let point: VertexBuffer
        init(program: Program, matrix: UniformMat4, point: VertexBuffer) { self.program = program; self.matrix = matrix; self.point = point }

        func render(_ p: CustomLayerParameters) throws {
            p.context.use(program)
            p.context.setAttribute(VertexAttribute(location: 0, components: 3, type: .float), point)
            matrix.set(p.matrix)
            program.draw(.points, vertexCount: 1, modes: p.modes)
        }
    }
}

/// "tent-3d": a red tent of two slopes, 0.01 wide in Mercator units with a ridge 0.01 high,
/// just south-west of Mercator (0.5, 0.5), depth-tested with the map's extrusions ("3d").
struct Tent3D: CustomLayer {
    var renderingMode: CustomLayerRenderingMode { .threeD }

    func makeRenderer(context: GLContext) throws -> any CustomLayerRenderer {
        let vertex = HarnessCustomLayers.version + """
            in vec3 aPos;
            uniform mat4 uMatrix;
            void main() { gl_Position = uMatrix * vec4(aPos, 1.0); }
            """
        let program = try Program(context: context, name: "tent-3d", vertex: vertex, fragment: HarnessCustomLayers.red,
                                  attributes: ["aPos"])
        let x: Float = 0.5 - 0.015, y: Float = 0.5 - 0.01, z: Float = 0.01, d: Float = 0.01
        // Two slopes from the ground at y and y + 2d up to the ridge at y + d.
        let corners: [Float] = [x, y, 0, x + d, y, 0,
                                x, y + d, z, x + d, y + d, z,
                                x, y + 2 * d, 0, x + d, y + 2 * d, 0]
        return Renderer(program: program, matrix: UniformMat4(program, "uMatrix"),
                        vertices: VertexBuffer(context: context, data: corners),
                        indices: IndexBuffer(context: context, indices: [0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, 5]))
    }

    final class Renderer: CustomLayerRenderer {
        let program: Program
        let matrix: UniformMat4
        let vertices: VertexBuffer
        let indices: IndexBuffer
        init(program: Program, matrix: UniformMat4, vertices: VertexBuffer, indices: IndexBuffer) {
            self.program = program; self.matrix = matrix; self.vertices = vertices; self.indices = indices
        }

        func render(_ p: CustomLayerParameters) throws {
            p.context.use(program)
            p.context.setAttribute(VertexAttribute(location: 0, components: 3, type: .float), vertices)
            matrix.set(p.matrix)
            program.draw(indices: indices, modes: p.modes)
        }
    }
}
