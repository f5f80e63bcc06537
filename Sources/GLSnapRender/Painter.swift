import Foundation
import GLSnapGL
import GLSnapLayout
import GLSnapStyle

/// Draws the layers of one frame in order. Holds the per-frame state: which tiles' clipping masks
/// are in the stencil buffer.
struct Painter {
    let renderer: MapRenderer
    let frame: Frame
    /// Where layers draw: the frame's framebuffer, or a layer target while a layer with a layer
    /// opacity is drawn.
    var framebuffer: DrawTarget
    var context: GLContext { renderer.context }
    /// How each tile of the masked source is clipped: by its mask in the stencil buffer, or by
    /// a scissor box (`TileScissor`).
    private var maskedTiles: [CoveredTile: TileClip] = [:]
    private var maskedSource: String?

    /// Per-frame values shared by all layers and tiles.
    let caches = FrameCaches()

    init(renderer: MapRenderer, frame: Frame, framebuffer: DrawTarget) {
        self.renderer = renderer; self.frame = frame; self.framebuffer = framebuffer
    }

    /// The zoom the style is evaluated at: the camera's (for a globe's texture, the globe's).
    var zoom: Double { frame.globeCamera?.zoom ?? frame.transform.zoom }

    /// Clip-space units per CSS pixel of the piece drawn, over x and y (2 / width, -2 / height
    /// for a whole-image frame).
    var pixelsToClipUnits: (x: Double, y: Double) {
        let (sx, sy) = frame.pieceScale
        return (2 / frame.transform.width * sx, -2 / frame.transform.height * sy)
    }

    mutating func draw(_ item: FrameLayer) throws {
        let layer = item.layer
        guard layer.isVisible(atZoom: zoom) else { return }
        if let opacity = layerOpacity(layer), opacity < 1 {
            guard opacity > 0 else { return }
            // The inspector counts the layer's own fragments, not a composite's.
            if frame.overdrawInspector { return try drawDirect(item) }
            try drawComposited(item, opacity: opacity)
            return
        }
        try drawDirect(item)
    }

    /// `fill-layer-opacity` / `line-layer-opacity` of the layer (nil: the type has none).
    func layerOpacity(_ layer: StyleLayer) -> Double? {
        guard let opacity = layer.typed.layerOpacity, opacity.isSet else { return nil }
        return opacity.evaluate(EvaluationContext(zoom: zoom))
    }

    /// The layer drawn whole into a target of its own, then blended onto the frame at `opacity`,
    /// so that its features do not show through each other.
    mutating func drawComposited(_ item: FrameLayer, opacity: Double) throws {
        let main = framebuffer
        let target = try renderer.layerTarget(width: frame.width, height: frame.height)
        target.bindAndClear()
        framebuffer = target
        // The stencil masks are the target's own; the frame's are written again after.
        maskedTiles = [:]
        maskedSource = nil
        defer {
            framebuffer = main
            main.bind()
            maskedTiles = [:]
            maskedSource = nil
        }
        try drawDirect(item)
        main.bind()
        let composite = try renderer.programs.program(LayerCompositeProgram.self)
        context.use(composite.program)
        context.bind(target.texture, unit: 0)
        composite.uniforms.image.set(unit: 0)
        composite.uniforms.opacity.set(Float(opacity))
        bindStream(renderer.screenQuad, location: ProgramSet.location("a_pos", in: .layerComposite), components: 2, type: .float)
        composite.program.draw(indices: renderer.quadIndices, modes: DrawModes(color: .alphaBlended))
    }

    private mutating func drawDirect(_ item: FrameLayer) throws {
        let layer = item.layer
        // One exhaustive switch: a new layer type does not compile until it is drawn here.
        switch layer.typed {
        case .background(let background):
            try drawBackground(layer, background)
        case .fill(let fill):
            try prepareMasks(item)
            try drawFill(item, fill)
        case .line(let line):
            try prepareMasks(item)
            try drawLine(item, line)
        case .circle(let circle):
            try drawCircle(item, circle)
        case .symbol:
            try drawSymbol(item)
        case .raster(let raster):
            try drawRaster(item, raster)
        case .hillshade(let hillshade):
            try drawHillshade(item, hillshade)
        case .heatmap(let heatmap):
            try drawHeatmap(item, heatmap)
        case .fillExtrusion(let extrusion):
            try drawFillExtrusion(item, extrusion)
        case .colorRelief(let relief):
            try drawColorRelief(item, relief)
        }
    }

    /// Writes a stencil mask per tile of the layer's source (once per source run), or, where the
    /// tiles are axis-aligned rectangles on screen, keeps a scissor box per tile instead.
    mutating func prepareMasks(_ item: FrameLayer) throws {
        let tiles = item.tiles.map(\.tile)
        if maskedSource == item.source, tiles.allSatisfy({ maskedTiles[$0] != nil }) { return }
        maskedTiles = [:]
        maskedSource = item.source
        let matrices = tiles.map { frame.pieceMatrix(caches.tileMatrix($0, frame.transform)) }
        if let boxes = TileScissor.boxes(matrices, extent: Double(TileExtent.extent), width: frame.width, height: frame.height) {
            for (t, box) in zip(tiles, boxes) where maskedTiles[t] == nil { maskedTiles[t] = .scissor(box) }
            return
        }
        framebuffer.clearStencil()
        let mask = try renderer.programs.program(ClippingMaskProgram.self)
        context.use(mask.program)
        bindStream(renderer.tileQuad, location: 0, components: 2, type: .int16)
        for (i, t) in tiles.enumerated() where maskedTiles[t] == nil {
            let id = Int32(i + 1)
            guard id < 256 else { break }
            maskedTiles[t] = .stencil(.equal(id))
            mask.uniforms.matrix.set(matrices[i])
            mask.program.draw(indices: renderer.quadIndices,
                              modes: DrawModes(stencil: StencilMode(function: .always, reference: id, writeMask: 0xFF, pass: .replace),
                                               color: .disabled))
        }
    }

    /// Clears the stencil buffer for a draw that uses it for its own purpose (raster overlap);
    /// the next clipped layer writes its masks again.
    mutating func releaseStencil() {
        framebuffer.clearStencil()
        maskedTiles = [:]
        maskedSource = nil
    }

    /// The stencil test or scissor box that keeps a tile's drawing inside its own square (nil:
    /// no mask for it).
    func clip(for tile: CoveredTile) -> TileClip? {
        maskedTiles[tile]
    }

    // MARK: - Attribute and uniform helpers

    func bindStream(_ buffer: VertexBuffer, location: UInt32, components: Int, type: AttributeType) {
        context.setAttribute(VertexAttribute(location: location, components: components, type: type), buffer)
    }

    /// Points every attribute of `shader` at the geometry's streams, its per-vertex paint buffers,
    /// or a constant value.
    func bindAttributes(_ shader: ShaderID, geometry: GPUGeometry, paint: [String: PaintBinding]) {
        for (i, name) in shader.attributes.enumerated() {
            let loc = UInt32(i)
            if let s = geometry.streams[name] {
                context.setAttribute(VertexAttribute(location: loc, components: s.components, type: s.type, normalized: s.normalized), s.buffer)
            } else if paint[name] == nil, let b = geometry.paint[name] {
                context.setAttribute(VertexAttribute(location: loc, components: b.key.components, type: .float), b.buffer)
            } else if case .constant(let v)? = paint[name] {
                context.setAttribute(loc, constant: v)
            } else {
                context.disableAttribute(loc)
            }
        }
    }

    /// Evaluates paint attributes for a geometry: constants directly, per-vertex values uploaded
    /// once and reused while the layer, style and (for zoom-dependent properties) zoom stay the same.
    func bindPaint(_ attributes: [PaintAttribute], layer: StyleLayer, geometry: GPUGeometry, box: GeometryBox) -> [String: PaintBinding] {
        var result: [String: PaintBinding] = [:]
        for a in attributes {
            let v = a.value
            let z = a.integerZoom ? zoom.rounded(.down) : zoom
            if v.isFeatureConstant {
                geometry.paint[a.attribute] = nil
                let key = FrameCaches.PaintKey(layer: layer.id, property: a.property, integerZoom: a.integerZoom)
                result[a.attribute] = .constant(caches.constant(key) { PaintBinder.components(v, a.kind, EvaluationContext(zoom: z)) })
                continue
            }
            let states = v.isStateConstant ? nil : frame.featureStates.layerStates(source: layer.source, sourceLayer: layer.sourceLayer)
            let key = PaintKey(layer: layer.id, property: a.property, generation: frame.paintGeneration(layer.id),
                               zoom: v.isZoomConstant ? -1 : z, components: a.components,
                               stateGeneration: v.isStateConstant ? 0 : frame.featureStates.generation)
            if geometry.paint[a.attribute]?.key == key { continue }
            if case .perVertex(let values) = PaintBinder.bind(a, geometry: box.geometry, zoom: z, states: states) {
                geometry.paint[a.attribute] = (key, VertexBuffer(context: context, data: values))
            }
        }
        return result
    }

    /// The tile matrix moved by a `*-translate` property (pixels), rotated with the map unless the
    /// anchor is the viewport (MapLibre's translatePosMatrix).
    func matrix(for tile: CoveredTile, translate: [Double], anchor: TranslateAnchor) -> [Float] {
        var m = caches.tileMatrix(tile, frame.transform)
        guard translate.count == 2, translate[0] != 0 || translate[1] != 0 else { return frame.pieceMatrix(m) }
        let t = frame.translationInTileUnits(tile.id, translate[0], translate[1], viewport: anchor == .viewport)
        let tx = Float(t.x), ty = Float(t.y)
        for i in 0..<4 { m[12 + i] += m[i] * tx + m[4 + i] * ty }
        return frame.pieceMatrix(m)
    }

    func translate(_ translate: LayerProperty<[Double]>, _ anchor: LayerProperty<TranslateAnchor>) -> (translate: [Double], anchor: TranslateAnchor) {
        let ctx = EvaluationContext(zoom: zoom)
        return (translate.evaluate(ctx), anchor.evaluate(ctx))
    }
}
