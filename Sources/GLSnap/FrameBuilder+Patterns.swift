import GLSnapLayout
import GLSnapRender
import GLSnapStyle

extension FrameBuilder {
    /// Puts every image the frame's `*-pattern` properties name into the style's pattern atlas:
    /// constant patterns at the integer zoom (the image a finished cross-fade shows), data-driven
    /// ones for each feature of each tile. Images come from the sprites and SVG icons through the
    /// symbol resources, so a pattern and an icon of the same name are the same picture.
    func resolvePatterns(_ layers: [FrameLayer], zoom: Double, pixelRatio: Double) {
        var ctx = EvaluationContext(zoom: zoom.rounded(.down))
        var iconPixels: (version: Int, width: Int, pixels: [UInt8])?
        for item in layers {
            guard let pattern = item.layer.typed.pattern, pattern.isSet else { continue }
            let value = pattern.value
            if value.isFeatureConstant {
                ctx.feature = nil
                if let image = PatternAtlas.image(value.evaluate(ctx)) {
                    addPattern(image, pixelRatio: pixelRatio, iconPixels: &iconPixels)
                }
                continue
            }
            var seen = Set<String>()
            for tile in item.tiles {
                guard let box = tile.geometry else { continue }
                for feature in box.geometry.features {
                    ctx.feature = feature
                    guard let image = PatternAtlas.image(value.evaluate(ctx)), image.params.isEmpty ? seen.insert(image.name).inserted : true
                    else { continue }
                    addPattern(image, pixelRatio: pixelRatio, iconPixels: &iconPixels)
                }
            }
        }
    }

    private func addPattern(_ image: (name: String, params: [String: Color]), pixelRatio: Double,
                            iconPixels: inout (version: Int, width: Int, pixels: [UInt8])?) {
        let key = PatternAtlas.key(name: image.name, pixelRatio: pixelRatio)
        guard style.patterns.lookup(key) == nil else { return }
        let resources = style.symbolResources
        guard let slot = resources.icon(name: image.name, params: image.params, iconSize: 1, pixelRatio: pixelRatio) else {
            style.patterns.add(key: key, pixels: nil, width: 0, height: 0, pixelRatio: pixelRatio)
            return
        }
        // The icon atlas holds the image premultiplied; copy its texels out (one snapshot,
        // taken again only when a lookup added icons after it).
        if iconPixels?.version != resources.iconAtlas.version {
            let snap = resources.iconAtlas.snapshot()
            iconPixels = (snap.version, snap.width, snap.pixels)
        }
        guard let (_, atlasWidth, atlas) = iconPixels else { return }
        let r = slot.rect
        var pixels = [UInt8](repeating: 0, count: r.w * r.h * 4)
        for y in 0..<r.h {
            let s = ((r.y + y) * atlasWidth + r.x) * 4, d = y * r.w * 4
            guard s >= 0, s + r.w * 4 <= atlas.count else { break }
            for i in 0..<(r.w * 4) { pixels[d + i] = atlas[s + i] }
        }
        style.patterns.add(key: key, pixels: pixels, width: r.w, height: r.h, pixelRatio: slot.pixelRatio / slot.baseScale)
    }

}
