import CMesa
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
    var gl: GLFunctions { renderer.context.gl }
    /// The tiles whose masks the stencil buffer holds, with their stencil ids.
    private var maskedTiles: [CoveredTile: Int32] = [:]
    private var maskedSource: String?

    /// Per-frame values shared by all layers and tiles.
    let caches = FrameCaches()

    init(renderer: MapRenderer, frame: Frame, framebuffer: DrawTarget) {
        self.renderer = renderer; self.frame = frame; self.framebuffer = framebuffer
    }

    var zoom: Double { frame.transform.zoom }

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
        let program = try renderer.programs.program(.layerComposite)
        context.use(program)
        context.bind(target.texture, unit: 0)
        gl.Uniform1i(program.location("u_image"), 0)
        gl.Uniform1f(program.location("u_opacity"), Float(opacity))
        context.apply(DrawModes(color: .alphaBlended))
        bindStream(renderer.screenQuad, location: ProgramSet.location("a_pos", in: .layerComposite), components: 2, type: GLenum(GL_FLOAT))
        gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), renderer.quadIndices.id)
        gl.DrawElements(GLenum(GL_TRIANGLES), 6, GLenum(GL_UNSIGNED_INT), nil)
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

    /// Writes a stencil mask per tile of the layer's source (once per source run).
    mutating func prepareMasks(_ item: FrameLayer) throws {
        let tiles = item.tiles.map(\.tile)
        if maskedSource == item.source, tiles.allSatisfy({ maskedTiles[$0] != nil }) { return }
        framebuffer.clearStencil()
        maskedTiles = [:]
        maskedSource = item.source
        let program = try renderer.programs.program(.clippingMask)
        context.use(program)
        bindStream(renderer.tileQuad, location: 0, components: 2, type: GLenum(GL_SHORT))
        gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), renderer.quadIndices.id)
        for (i, t) in tiles.enumerated() where maskedTiles[t] == nil {
            let id = Int32(i + 1)
            guard id < 256 else { break }
            maskedTiles[t] = id
            context.apply(DrawModes(stencil: StencilMode(function: GLenum(GL_ALWAYS), reference: id, writeMask: 0xFF,
                                                         pass: GLenum(GL_REPLACE)), color: .disabled))
            setMatrix(program, frame.pieceMatrix(caches.tileMatrix(t, frame.transform)))
            gl.DrawElements(GLenum(GL_TRIANGLES), 6, GLenum(GL_UNSIGNED_INT), nil)
        }
    }

    /// Clears the stencil buffer for a draw that uses it for its own purpose (raster overlap);
    /// the next clipped layer writes its masks again.
    mutating func releaseStencil() {
        framebuffer.clearStencil()
        maskedTiles = [:]
        maskedSource = nil
    }

    /// Stencil test that keeps a tile's drawing inside its own square.
    func stencil(for tile: CoveredTile) -> StencilMode? {
        maskedTiles[tile].map { StencilMode.equal($0) }
    }

    // MARK: - Attribute and uniform helpers

    func bindStream(_ buffer: Buffer, location: UInt32, components: Int, type: GLenum) {
        gl.BindBuffer(GLenum(GL_ARRAY_BUFFER), buffer.id)
        gl.EnableVertexAttribArray(location)
        gl.VertexAttribPointer(location, GLint(components), type, GLboolean(0), 0, nil)
    }

    /// Points every attribute of `shader` at the geometry's streams, its per-vertex paint buffers,
    /// or a constant value.
    func bindAttributes(_ shader: ShaderID, geometry: GPUGeometry, paint: [String: PaintBinding]) {
        for (i, name) in shader.attributes.enumerated() {
            let loc = UInt32(i)
            if let s = geometry.streams[name] {
                gl.BindBuffer(GLenum(GL_ARRAY_BUFFER), s.buffer.id)
                gl.EnableVertexAttribArray(loc)
                gl.VertexAttribPointer(loc, GLint(s.components), s.type, GLboolean(s.normalized ? 1 : 0), 0, nil)
            } else if paint[name] == nil, let b = geometry.paint[name] {
                gl.BindBuffer(GLenum(GL_ARRAY_BUFFER), b.buffer.id)
                gl.EnableVertexAttribArray(loc)
                gl.VertexAttribPointer(loc, GLint(b.key.components), GLenum(GL_FLOAT), GLboolean(0), 0, nil)
            } else {
                gl.DisableVertexAttribArray(loc)
                if case .constant(let v)? = paint[name] {
                    switch v.count {
                    case 4: gl.VertexAttrib4f(loc, v[0], v[1], v[2], v[3])
                    case 2: gl.VertexAttrib2f(loc, v[0], v[1])
                    default: gl.VertexAttrib1f(loc, v.first ?? 0)
                    }
                }
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
                geometry.paint[a.attribute] = (key, Buffer(context: context, target: GLenum(GL_ARRAY_BUFFER), data: values))
            }
        }
        return result
    }

    func setMatrix(_ program: Program, _ m: [Float], name: String = "u_matrix") {
        m.withUnsafeBufferPointer { gl.UniformMatrix4fv(program.location(name), 1, GLboolean(0), $0.baseAddress) }
    }

    /// The tile matrix moved by a `*-translate` property (pixels), rotated with the map unless the
    /// anchor is the viewport (MapLibre's translatePosMatrix).
    func matrix(for tile: CoveredTile, translate: [Double], anchor: TranslateAnchor) -> [Float] {
        var m = caches.tileMatrix(tile, frame.transform)
        guard translate.count == 2, translate[0] != 0 || translate[1] != 0 else { return frame.pieceMatrix(m) }
        var x = translate[0], y = translate[1]
        if anchor == .viewport {
            let angle = frame.transform.bearing * .pi / 180
            let s = sin(angle), c = cos(angle)
            (x, y) = (x * c - y * s, x * s + y * c)
        }
        let tx = Float(frame.transform.pixelsToTileUnits(tile.id, x))
        let ty = Float(frame.transform.pixelsToTileUnits(tile.id, y))
        for i in 0..<4 { m[12 + i] += m[i] * tx + m[4 + i] * ty }
        return frame.pieceMatrix(m)
    }

    func translate(_ translate: LayerProperty<[Double]>, _ anchor: LayerProperty<TranslateAnchor>) -> (translate: [Double], anchor: TranslateAnchor) {
        let ctx = EvaluationContext(zoom: zoom)
        return (translate.evaluate(ctx), anchor.evaluate(ctx))
    }
}
