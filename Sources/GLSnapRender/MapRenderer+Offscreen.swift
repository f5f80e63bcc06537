import CMesa
import GLSnapGL
import GLSnapStyle

extension MapRenderer {
    /// The half-float density target of `width` x `height` for heatmap layers (one, reused).
    func heatmapTarget(width: Int, height: Int) throws -> RenderTarget {
        if let h = heatmap, h.texture.width == width, h.texture.height == height { return h }
        heatmap = nil
        let t = try RenderTarget(context: context, width: width, height: height, internalFormat: GL_RGBA16F, linear: true)
        heatmap = t
        return t
    }

    /// The target a layer with a layer opacity is drawn into, the frame's size (one, reused).
    func layerTarget(width: Int, height: Int) throws -> LayerTarget {
        if let t = layerTargetCache, t.texture.width == width, t.texture.height == height { return t }
        layerTargetCache = nil
        let t = try LayerTarget(context: context, width: width, height: height)
        layerTargetCache = t
        return t
    }

    /// The ramp texture of a color property over 0...1 (heatmap-color, line-gradient).
    func colorRamp(for layer: StyleLayer, ramp: LayerProperty<Color>, input: ColorRamps.Input, generation: Int) throws -> Texture {
        colorRamps.texture(for: layer, ramp: ramp, input: input, generation: generation, context: context)
    }
}
