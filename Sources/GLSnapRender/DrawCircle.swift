import CMesa
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
        let program = try renderer.programs.program(.circle)
        context.use(program)
        let t = frame.transform
        let scaleWithMap = layer.paint("circle-pitch-scale").evaluateString(ctx) == "map"
        let pitchWithMap = layer.paint("circle-pitch-alignment").evaluateString(ctx) == "map"
        gl.Uniform1i(program.location("u_scale_with_map"), scaleWithMap ? 1 : 0)
        gl.Uniform1i(program.location("u_pitch_with_map"), pitchWithMap ? 1 : 0)
        gl.Uniform1f(program.location("u_device_pixel_ratio"), Float(frame.pixelRatio))
        gl.Uniform1f(program.location("u_camera_to_center_distance"), Float(t.cameraToCenterDistance))
        context.apply(DrawModes(color: .alphaBlended))
        for tile in item.tiles {
            guard let box = tile.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard let triangles = g.indices.first, triangles.count > 0 else { continue }
            setMatrix(program, matrix(for: tile.tile, translate: translate, anchor: anchor))
            if pitchWithMap {
                let s = Float(t.pixelsToTileUnits(tile.tile.id, 1))
                gl.Uniform2f(program.location("u_extrude_scale"), s, s)
            } else {
                gl.Uniform2f(program.location("u_extrude_scale"), Float(2 / t.width), Float(-2 / t.height))
            }
            let paint = bindPaint(Painter.circleAttributes, layer: layer, geometry: g, box: box)
            bindAttributes(.circle, geometry: g, paint: paint)
            gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), triangles.buffer.id)
            gl.DrawElements(GLenum(GL_TRIANGLES), GLsizei(triangles.count), GLenum(GL_UNSIGNED_INT), nil)
        }
    }
}
