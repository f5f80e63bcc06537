import CMesa
import GLSnapGL
import GLSnapStyle

extension Painter {
    static let fillExtrusionAttributes = [
        PaintAttribute(attribute: "a_color", property: "fill-extrusion-color", kind: .color),
        PaintAttribute(attribute: "a_height", property: "fill-extrusion-height", kind: .number),
        PaintAttribute(attribute: "a_base", property: "fill-extrusion-base", kind: .number),
    ]

    /// fill-extrusion: depth-tested walls and roofs. Opaque layers draw once; translucent ones
    /// draw depth first, then color only the nearest surface, each pixel once (stencil), so
    /// hidden faces do not show through (MapLibre's two passes).
    mutating func drawFillExtrusion(_ item: FrameLayer) throws {
        let layer = item.layer
        let ctx = EvaluationContext(zoom: zoom)
        let opacity = layer.paint("fill-extrusion-opacity").evaluateNumber(ctx)
        guard opacity > 0 else { return }
        let (translate, anchor) = self.translate(layer, "fill-extrusion")
        let program = try renderer.programs.program(.fillExtrusion)
        context.use(program)
        let light = ExtrusionLight(frame.light, bearing: frame.transform.bearing)
        gl.Uniform3f(program.location("u_lightpos"), Float(light.position.0), Float(light.position.1), Float(light.position.2))
        gl.Uniform3f(program.location("u_lightcolor"), Float(light.color.r), Float(light.color.g), Float(light.color.b))
        gl.Uniform1f(program.location("u_lightintensity"), Float(light.intensity))
        gl.Uniform1f(program.location("u_vertical_gradient"), layer.paint("fill-extrusion-vertical-gradient").evaluateBool(ctx) ? 1 : 0)
        gl.Uniform1f(program.location("u_opacity"), Float(opacity))
        let depth = DepthMode(function: GLenum(GL_LEQUAL), writes: true)
        if opacity >= 1 {
            drawExtrusionTiles(item, program: program, modes: DrawModes(depth: depth, color: .alphaBlended), translate: translate, anchor: anchor)
        } else {
            drawExtrusionTiles(item, program: program, modes: DrawModes(depth: depth, color: .disabled), translate: translate, anchor: anchor)
            releaseStencil()
            let once = StencilMode(function: GLenum(GL_NOTEQUAL), reference: 1, writeMask: 0xFF, pass: GLenum(GL_REPLACE))
            drawExtrusionTiles(item, program: program, modes: DrawModes(depth: depth, stencil: once, color: .alphaBlended),
                               translate: translate, anchor: anchor)
            releaseStencil()
        }
    }

    private func drawExtrusionTiles(_ item: FrameLayer, program: Program, modes: DrawModes, translate: [Double], anchor: String) {
        for tile in item.tiles {
            guard let box = tile.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard let triangles = g.indices.first, triangles.count > 0 else { continue }
            context.apply(modes)
            setMatrix(program, matrix(for: tile.tile, translate: translate, anchor: anchor))
            let paint = bindPaint(Painter.fillExtrusionAttributes, layer: item.layer, geometry: g, box: box)
            bindAttributes(.fillExtrusion, geometry: g, paint: paint)
            gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), triangles.buffer.id)
            gl.DrawElements(GLenum(GL_TRIANGLES), GLsizei(triangles.count), GLenum(GL_UNSIGNED_INT), nil)
        }
    }
}
