import GLSnapGL
import GLSnapStyle

extension Painter {
    static func circleAttributes(_ circle: CircleLayer) -> [PaintAttribute] { [
        PaintAttribute(attribute: "a_color", property: circle.color),
        PaintAttribute(attribute: "a_radius", property: circle.radius),
        PaintAttribute(attribute: "a_blur", property: circle.blur),
        PaintAttribute(attribute: "a_opacity", property: circle.opacity),
        PaintAttribute(attribute: "a_stroke_color", property: circle.strokeColor),
        PaintAttribute(attribute: "a_stroke_width", property: circle.strokeWidth),
        PaintAttribute(attribute: "a_stroke_opacity", property: circle.strokeOpacity),
    ] }

    /// circle: a quad per point, shaded as a disc; not stencil-clipped, since buckets keep only the
    /// points inside their own tile. A circle reaching into a neighbor tile covers it or lies under
    /// it as GL JS orders the tiles (`translucentPassOrder`), not as the cover lists them.
    mutating func drawCircle(_ item: FrameLayer, _ circle: CircleLayer) throws {
        let layer = item.layer
        let ctx = EvaluationContext(zoom: zoom)
        let (translate, anchor) = self.translate(circle.translate, circle.translateAnchor)
        let program = try renderer.programs.program(CircleProgram.self)
        let u = program.uniforms
        context.use(program.program)
        let t = frame.transform
        let scaleWithMap = circle.pitchScale.evaluate(ctx) == .map
        let pitchWithMap = circle.pitchAlignment.evaluate(ctx) == .map
        u.scaleWithMap.set(scaleWithMap)
        u.pitchWithMap.set(pitchWithMap)
        u.devicePixelRatio.set(Float(frame.pixelRatio))
        u.cameraToCenterDistance.set(Float(t.cameraToCenterDistance))
        let attributes = Painter.circleAttributes(circle)
        let tiles = Painter.translucentPassOrder(item.tiles)
        // On the globe each tile's circles are drawn at once (in the bucket's key order).
        let runs = Painter.circleRuns(tiles, sortKey: frame.globe == nil || pitchWithMap ? circle.sortKey : nil, zoom: zoom)
        var boundTile: Int?
        var elevations: VertexBuffer?
        for run in runs {
            let tile = tiles[run.tile]
            guard let box = tile.geometry else { continue }
            let g = renderer.upload(box)
            guard let triangles = g.indices.first else { continue }
            if boundTile != run.tile {
                boundTile = run.tile
                u.matrix.set(matrix(for: tile.tile, translate: translate, anchor: anchor))
                if pitchWithMap {
                    let s = Float(t.pixelsToTileUnits(tile.tile.id, 1))
                    u.extrudeScale.set(s, s)
                } else {
                    u.extrudeScale.set(Float(pixelsToClipUnits.x), Float(pixelsToClipUnits.y))
                }
                let paint = bindPaint(attributes, layer: layer, geometry: g, box: box)
                bindAttributes(.circle, geometry: g, paint: paint)
                elevations = bindElevation(.circle, tile: tile.tile, box: box, anchor: .pointCenter)
            }
            if let globe = frame.globe, !pitchWithMap {
                drawCirclesOnGlobe(globe, tile: tile.tile, box: box, triangles: triangles.buffer, program: program,
                                   translate: globeTranslation(tile.tile.id, translate, anchor))
                continue
            }
            program.program.draw(indices: triangles.buffer, first: run.first, count: run.count, modes: DrawModes(color: .alphaBlended))
        }
        withExtendedLifetime(elevations) {}
    }
}
