import GLSnapGL
import GLSnapLayout

extension MapRenderer {
    /// The renderer of `custom` on this context, made (the layer's onAdd) on first use.
    private func customRenderer(_ custom: FrameCustomLayer) throws -> any CustomLayerRenderer {
        if let r = customRenderers[custom.key] { return r }
        let r: any CustomLayerRenderer
        do {
            r = try custom.layer.makeRenderer(context: context)
        } catch {
            restoreState()
            throw CustomLayerError(layer: custom.id, stage: "onAdd", underlying: error)
        }
        customRenderers[custom.key] = r
        return r
    }

    /// Calls every custom layer's prerender (before the frame's framebuffer is bound and cleared).
    func prerenderCustomLayers(_ frame: Frame) throws {
        for custom in frame.customLayers {
            let renderer = try customRenderer(custom)
            let parameters = customParameters(custom, frame)
            defer { restoreState() }
            do { try renderer.prerender(parameters) } catch {
                throw CustomLayerError(layer: custom.id, stage: "prerender", underlying: error)
            }
        }
    }

    /// Draws the custom layers placed before `frame.layers[position]` into `framebuffer`, then
    /// puts the map's state back for the layers after them.
    func drawCustomLayers(at position: Int, _ frame: Frame, framebuffer: DrawTarget) throws {
        for custom in frame.customLayers where custom.position == position {
            let renderer = try customRenderer(custom)
            let parameters = customParameters(custom, frame)
            defer {
                restoreState()
                framebuffer.bind()
            }
            do { try renderer.render(parameters) } catch {
                throw CustomLayerError(layer: custom.id, stage: "render", underlying: error)
            }
        }
    }

    /// Hands back (onRemove) the renderers of custom layers `frame` no longer has.
    func releaseCustomRenderers(keeping frame: Frame) {
        guard !customRenderers.isEmpty else { return }
        let kept = Set(frame.customLayers.map(\.key))
        for (key, renderer) in customRenderers where !kept.contains(key) {
            renderer.onRemove(context: context)
            customRenderers[key] = nil
        }
        restoreState()
    }

    /// Forgets the cached GL state (a callback may have changed any of it) and binds the map's
    /// vertex array again.
    private func restoreState() {
        context.forgetState()
        context.bind(vertexArray)
    }

    private func customParameters(_ custom: FrameCustomLayer, _ frame: Frame) -> CustomLayerParameters {
        let modes = DrawModes(depth: custom.layer.renderingMode == .threeD ? DepthMode(function: .lessOrEqual, writes: true) : nil,
                              color: .alphaBlended)
        return CustomLayerParameters(context: context, matrix: frame.pieceMatrix(frame.transform.mercatorMatrix),
                                     transform: frame.transform, width: frame.width, height: frame.height, modes: modes)
    }
}
