import CMesa
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
    /// points inside their own tile.
    mutating func drawCircle(_ item: FrameLayer, _ circle: CircleLayer) throws {
        let layer = item.layer
        let ctx = EvaluationContext(zoom: zoom)
        let (translate, anchor) = self.translate(circle.translate, circle.translateAnchor)
        let program = try renderer.programs.program(.circle)
        context.use(program)
        let t = frame.transform
        let scaleWithMap = circle.pitchScale.evaluate(ctx) == .map
        let pitchWithMap = circle.pitchAlignment.evaluate(ctx) == .map
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
                gl.Uniform2f(program.location("u_extrude_scale"), Float(pixelsToClipUnits.x), Float(pixelsToClipUnits.y))
            }
            let paint = bindPaint(Painter.circleAttributes(circle), layer: layer, geometry: g, box: box)
            bindAttributes(.circle, geometry: g, paint: paint)
            gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), triangles.buffer.id)
            gl.DrawElements(GLenum(GL_TRIANGLES), GLsizei(triangles.count), GLenum(GL_UNSIGNED_INT), nil)
        }
    }
}
