import GLSnapGL
import GLSnapStyle

extension Painter {
    static let circleAttributes = [
        PaintAttribute(attribute: "a_color", property: "circle-color", kind: .color),
        PaintAttribute(attribute: "a_radius", property: "circle-radius", kind: .number),
        PaintAttribute(attribute: "a_blur", property: "circle-blur", kind: .number),
        PaintAttribute(attribute: "a_opacity", property: "circle-opacity", kind: .number),
        PaintAttribute(attribute: "a_stroke_color", property: "circle-stroke-color", kind: .color),
        PaintAttribute(attribute: "a_stroke_width", property: "circle-stroke-width", kind: .number),
        PaintAttribute(attribute: "a_stroke_opacity", property: "circle-stroke-opacity", kind: .number),
    ]

    /// circle: a quad per point, shaded as a disc; not stencil-clipped, since buckets keep only the
    /// points inside their own tile.
    mutating func drawCircle(_ item: FrameLayer) throws {
        let layer = item.layer
        let ctx = EvaluationContext(zoom: zoom)
        let (translate, anchor) = self.translate(layer, "circle")
        let circle = try renderer.programs.program(CircleProgram.self)
        let u = circle.uniforms
        context.use(circle.program)
        let t = frame.transform
        let scaleWithMap = layer.paint("circle-pitch-scale").evaluateString(ctx) == "map"
        let pitchWithMap = layer.paint("circle-pitch-alignment").evaluateString(ctx) == "map"
        u.scaleWithMap.set(scaleWithMap)
        u.pitchWithMap.set(pitchWithMap)
        u.devicePixelRatio.set(Float(frame.pixelRatio))
        u.cameraToCenterDistance.set(Float(t.cameraToCenterDistance))
        for tile in item.tiles {
            guard let box = tile.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard let triangles = g.indices.first, triangles.count > 0 else { continue }
            u.matrix.set(matrix(for: tile.tile, translate: translate, anchor: anchor))
            if pitchWithMap {
                let s = Float(t.pixelsToTileUnits(tile.tile.id, 1))
                u.extrudeScale.set(s, s)
            } else {
                u.extrudeScale.set(Float(pixelsToClipUnits.x), Float(pixelsToClipUnits.y))
            }
            let paint = bindPaint(Painter.circleAttributes, layer: layer, geometry: g, box: box)
            bindAttributes(.circle, geometry: g, paint: paint)
            circle.program.draw(indices: triangles.buffer, count: triangles.count, modes: DrawModes(color: .alphaBlended))
        }
    }
}
