import GLSnapGL
import GLSnapImage
import GLSnapLayout
import GLSnapStyle

/// Draws frames with one GL context. Not thread-safe: a worker thread owns one `MapRenderer`.
///
/// GPU uploads of tile geometry are cached by the geometry's identity, so the views of a server
/// that renders the same city over and over upload each tile layer once.
public final class MapRenderer {
    public let context: GLContext
    let programs: ProgramSet
    private var framebuffer: Framebuffer?
    private var gpu: [ObjectIdentifier: (box: GeometryBox, geometry: GPUGeometry)] = [:]
    private var frameNumber = 0
    /// Uploads not used for this many frames are freed.
    private let gpuCacheFrames = 8
    let screenQuad: VertexBuffer
    let tileQuad: VertexBuffer
    let quadIndices: IndexBuffer
    let vertexArray: VertexArray
    /// Each custom layer's renderer on this context, by `FrameCustomLayer.key`.
    var customRenderers: [Int: any CustomLayerRenderer] = [:]
    let dashAtlas: DashAtlas
    let symbolTextures = SymbolTextures()
    let rasterTextures = RasterTextures()
    let colorRamps = ColorRamps()
    let reliefRamps = ReliefRamps()
    /// The heatmap density target, remade when the image size changes.
    var heatmap: RenderTarget?
    /// The target of layers drawn with a layer opacity, remade when the image size changes.
    var layerTargetCache: LayerTarget?
    /// The target terrain tiles' draped layers are drawn into (one, reused).
    var terrainTarget: LayerTarget?
    /// The quad split along the other diagonal (image sources).
    let imageQuadIndices: IndexBuffer
    /// The number of the frame being drawn (for cache eviction).
    var currentFrame: Int { frameNumber }

    /// Creates the GL context (current on the calling thread) and the shared buffers.
    public init(backend: Backend, rasterizer: SoftwareRasterizer = .automatic(workers: 1)) throws {
        context = try GLContext(backend: backend, rasterizer: rasterizer)
        programs = ProgramSet(context: context)
        screenQuad = VertexBuffer(context: context, data: [Float]([-1, -1, 1, -1, 1, 1, -1, 1]))
        let e = Int16(TileExtent.extent)
        tileQuad = VertexBuffer(context: context, data: [Int16]([0, 0, e, 0, e, e, 0, e]))
        quadIndices = IndexBuffer(context: context, indices: [0, 1, 2, 0, 2, 3])
        imageQuadIndices = IndexBuffer(context: context, indices: [0, 1, 3, 1, 2, 3])
        // Core profile needs a bound vertex array; attributes are pointed per draw.
        vertexArray = VertexArray(context: context, attributes: [], indices: nil)
        dashAtlas = DashAtlas()
    }

    /// Draws `frame` and reads it back as a straight-alpha image.
    public func render(_ frame: Frame) throws -> RGBAImage {
        try draw(frame)
        return try readImage(width: frame.width, height: frame.height)
    }

    /// Reads the last drawn frame (or piece) into `out`: straight RGBA rows, top first.
    public func readPixels(into out: UnsafeMutableRawBufferPointer) throws {
        guard let fb = framebuffer else { return }
        try fb.read(intoStraightRGBA: out)
    }

    /// Reads the last drawn frame back (waits for the rasterizer).
    public func readImage(width: Int, height: Int) throws -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        guard let fb = framebuffer, fb.width == width, fb.height == height else { return image }
        try image.pixels.withUnsafeMutableBytes { try fb.read(intoStraightRGBA: $0) }
        return image
    }

    /// Draws `frame` into the offscreen framebuffer (for callers that read back in pieces).
    public func draw(_ frame: Frame) throws {
        frameNumber += 1
        if framebuffer?.width != frame.width || framebuffer?.height != frame.height {
            framebuffer = nil
            framebuffer = try Framebuffer(context: context, width: frame.width, height: frame.height)
        }
        guard let fb = framebuffer else { return }
        if !frame.customLayers.isEmpty { try prerenderCustomLayers(frame) }
        inspectOverdraw(frame.overdrawInspector)
        defer { inspectOverdraw(false) }
        fb.bind()
        if let terrain = frame.terrain {
            fb.clear(r: 0, g: 0, b: 0, a: 0)
            context.bind(vertexArray)
            if let sky = SkyView(frame) {
                var painter = Painter(renderer: self, frame: frame, framebuffer: fb)
                try painter.drawSky(sky)
            }
            try drawOverTerrain(frame, terrain, framebuffer: fb)
            evictUnused()
            try context.checkError("drawing the frame")
            return
        }
        // A plain background under everything becomes the clear color (one full-screen blend less),
        // unless a sky shows above the horizon: then the sky is drawn first and the ground over it.
        var layers = frame.layers[...]
        let sky = SkyView(frame)
        if frame.overdrawInspector {
            fb.clear(r: 0, g: 0, b: 0, a: 1)  // GL JS's black: every layer's fragments are counted on it
        } else if sky == nil, let first = layers.first, let c = Painter.clearColor(first.layer, zoom: frame.transform.zoom) {
            fb.clear(r: c.r, g: c.g, b: c.b, a: c.a)
            layers = layers.dropFirst()
        } else {
            fb.clear(r: 0, g: 0, b: 0, a: 0)
        }
        context.bind(vertexArray)
        var painter = Painter(renderer: self, frame: frame, framebuffer: fb)
        if let sky { try painter.drawSky(sky) }
        var pacer = frame.deadline.map { DeadlinePacer(deadline: $0) }
        for i in layers.indices {
            try pacer?.beforeLayer { context.finish() }
            if !frame.customLayers.isEmpty { try drawCustomLayers(at: i, frame, framebuffer: fb) }
            try painter.draw(layers[i])
        }
        if !frame.customLayers.isEmpty { try drawCustomLayers(at: frame.layers.count, frame, framebuffer: fb) }
        releaseCustomRenderers(keeping: frame)
        evictUnused()
        try context.checkError("drawing the frame")
    }

    /// The upload of `box`, made on first use.
    func upload(_ box: GeometryBox) -> GPUGeometry {
        let key = ObjectIdentifier(box)
        if let g = gpu[key] {
            g.geometry.lastUsedFrame = frameNumber
            return g.geometry
        }
        let g = GPUGeometry(context: context, geometry: box.geometry)
        g.lastUsedFrame = frameNumber
        gpu[key] = (box, g)
        return g
    }

    private func evictUnused() {
        let cutoff = frameNumber - gpuCacheFrames
        gpu = gpu.filter { $0.value.geometry.lastUsedFrame > cutoff }
        rasterTextures.evict(before: frameNumber)
    }

    /// Uploaded geometries held now (for tests and stats).
    public var gpuCacheCount: Int { gpu.count }
}
