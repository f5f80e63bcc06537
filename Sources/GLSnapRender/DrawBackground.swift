import GLSnapGL
import GLSnapStyle

extension Painter {
    /// The premultiplied color a plain background layer (no pattern) leaves on a cleared
    /// framebuffer: blending it over transparent black gives exactly this color, so the frame can
    /// be cleared to it and the full-screen draw skipped. Nil for a pattern or an invisible layer.
    static func clearColor(_ layer: StyleLayer, zoom: Double) -> (r: Float, g: Float, b: Float, a: Float)? {
        guard let background = layer.background, layer.isVisible(atZoom: zoom), !background.pattern.isSet else { return nil }
        let ctx = EvaluationContext(zoom: zoom)
        let color = background.color.evaluate(ctx)
        // As the shader computes it: float32 color times float32 opacity.
        let opacity = Float(background.opacity.evaluate(ctx))
        return (Float(color.r) * opacity, Float(color.g) * opacity, Float(color.b) * opacity, Float(color.a) * opacity)
    }

    /// background: one quad over the viewport (background-pattern: DrawFillPattern.swift).
    mutating func drawBackground(_ layer: StyleLayer, _ background: BackgroundLayer) throws {
        if background.pattern.isSet { return try drawBackgroundPattern(background) }
        let ctx = EvaluationContext(zoom: zoom)
        let color = background.color.evaluate(ctx)
        let opacity = background.opacity.evaluate(ctx)
        guard opacity > 0, color.a > 0 else { return }
        if SkyView(frame) != nil { return try drawGroundBackground(color: color, opacity: opacity) }
        let background = try renderer.programs.program(BackgroundProgram.self)
        context.use(background.program)
        background.uniforms.color.set(Float(color.r), Float(color.g), Float(color.b), Float(color.a))
        background.uniforms.opacity.set(Float(opacity))
        bindStream(renderer.screenQuad, location: 0, components: 2, type: .float)
        background.program.draw(indices: renderer.quadIndices, modes: DrawModes(color: .alphaBlended))
    }
}
