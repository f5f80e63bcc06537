import CMesa
import GLSnapGL
import GLSnapStyle

extension Painter {
    /// background: one quad over the viewport (background-pattern: DrawFillPattern.swift).
    mutating func drawBackground(_ layer: StyleLayer) throws {
        if layer.hasValue("background-pattern", kind: .paint) { return try drawBackgroundPattern(layer) }
        let ctx = EvaluationContext(zoom: zoom)
        let color = layer.paint("background-color").evaluateColor(ctx)
        let opacity = layer.paint("background-opacity").evaluateNumber(ctx)
        guard opacity > 0, color.a > 0 else { return }
        let program = try renderer.programs.program(.background)
        context.use(program)
        context.apply(DrawModes(color: .alphaBlended))
        gl.Uniform4f(program.location("u_color"), Float(color.r), Float(color.g), Float(color.b), Float(color.a))
        gl.Uniform1f(program.location("u_opacity"), Float(opacity))
        bindStream(renderer.screenQuad, location: 0, components: 2, type: GLenum(GL_FLOAT))
        gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), renderer.quadIndices.id)
        gl.DrawElements(GLenum(GL_TRIANGLES), 6, GLenum(GL_UNSIGNED_INT), nil)
    }
}
