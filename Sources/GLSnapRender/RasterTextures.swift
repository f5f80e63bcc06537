import GLSnapGL

/// GPU textures of `RasterBox`es for one context, cached by the box's identity (so tiles shared by
/// several snapshots upload once) and freed when unused for a few frames.
final class RasterTextures {
    private var entries: [ObjectIdentifier: (box: RasterBox, texture: Texture, quad: VertexBuffer?, mipmapped: Bool, lastUsed: Int)] = [:]
    private let keepFrames = 8

    /// The texture of `box`, uploaded on first use; its quad buffer when it has corners; whether it
    /// has mipmaps (color tiles of any size, as MapLibre's WebGL 2 renderer has them).
    func texture(for box: RasterBox, context: GLContext, frame: Int) -> (texture: Texture, quad: VertexBuffer?, mipmapped: Bool) {
        let key = ObjectIdentifier(box)
        if var e = entries[key] {
            e.lastUsed = frame
            entries[key] = e
            return (e.texture, e.quad, e.mipmapped)
        }
        let t = Texture(context: context, width: box.image.width, height: box.image.height,
                        pixels: box.image.pixels, sampler: .linear)
        let mipmapped = box.kind == .color && box.corners == nil
        if mipmapped {
            // MapLibre samples raster tiles through mipmaps when they are drawn smaller than their size.
            t.generateMipmaps()
        }
        let quad = box.corners.map { VertexBuffer(context: context, data: $0) }
        entries[key] = (box, t, quad, mipmapped, frame)
        return (t, quad, mipmapped)
    }

    /// Targets made from DEM tiles (hillshade slopes), by the DEM box's identity.
    private var prepared: [ObjectIdentifier: (box: RasterBox, target: RenderTarget, lastUsed: Int)] = [:]

    /// The prepared target of `box`, or nil when `make` must fill one (then stored by `store`).
    func prepared(for box: RasterBox, frame: Int) -> RenderTarget? {
        let key = ObjectIdentifier(box)
        guard var e = prepared[key] else { return nil }
        e.lastUsed = frame
        prepared[key] = e
        return e.target
    }

    func store(_ target: RenderTarget, for box: RasterBox, frame: Int) {
        prepared[ObjectIdentifier(box)] = (box, target, frame)
    }

    func evict(before frame: Int) {
        let cutoff = frame - keepFrames
        entries = entries.filter { $0.value.lastUsed > cutoff }
        prepared = prepared.filter { $0.value.lastUsed > cutoff }
    }

    var count: Int { entries.count }
}
