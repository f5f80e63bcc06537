import CMesa
import GLSnapGL

/// GPU textures of `RasterBox`es for one context, cached by the box's identity (so tiles shared by
/// several snapshots upload once) and freed when unused for a few frames.
final class RasterTextures {
    private var entries: [ObjectIdentifier: (box: RasterBox, texture: Texture, quad: Buffer?, lastUsed: Int)] = [:]
    private let keepFrames = 8

    /// The texture of `box`, uploaded with mipmaps on first use; its quad buffer when it has corners.
    func texture(for box: RasterBox, context: GLContext, frame: Int) -> (texture: Texture, quad: Buffer?) {
        let key = ObjectIdentifier(box)
        if var e = entries[key] {
            e.lastUsed = frame
            entries[key] = e
            return (e.texture, e.quad)
        }
        let t = Texture(context: context, width: box.image.width, height: box.image.height,
                        pixels: box.image.pixels, linear: true)
        if box.kind == .color {
            // MapLibre samples raster tiles through mipmaps when they are drawn smaller than their size.
            context.gl.GenerateMipmap(GLenum(GL_TEXTURE_2D))
        }
        let quad = box.corners.map { Buffer(context: context, target: GLenum(GL_ARRAY_BUFFER), data: $0) }
        entries[key] = (box, t, quad, frame)
        return (t, quad)
    }

    func evict(before frame: Int) {
        let cutoff = frame - keepFrames
        entries = entries.filter { $0.value.lastUsed > cutoff }
    }

    var count: Int { entries.count }
}
