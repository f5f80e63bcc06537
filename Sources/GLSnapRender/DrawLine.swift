import CMesa
import GLSnapGL
import GLSnapStyle

extension Painter {
    static let lineAttributes = [
        PaintAttribute(attribute: "a_color", property: "line-color", kind: .color),
        PaintAttribute(attribute: "a_opacity", property: "line-opacity", kind: .number),
        PaintAttribute(attribute: "a_width", property: "line-width", kind: .number),
        PaintAttribute(attribute: "a_gapwidth", property: "line-gap-width", kind: .number),
        PaintAttribute(attribute: "a_offset", property: "line-offset", kind: .number),
        PaintAttribute(attribute: "a_blur", property: "line-blur", kind: .number),
    ]

    /// line: extruded triangles; line-dasharray through the dash atlas (line-pattern and
    /// line-gradient are not drawn yet).
    mutating func drawLine(_ item: FrameLayer) throws {
        let layer = item.layer
        let ctx = EvaluationContext(zoom: zoom)
        let (translate, anchor) = self.translate(layer, "line")
        let program = try renderer.programs.program(.line)
        context.use(program)
        let t = frame.transform
        gl.Uniform2f(program.location("u_units_to_pixels"), Float(t.width / 2), Float(-t.height / 2))
        gl.Uniform1f(program.location("u_device_pixel_ratio"), Float(frame.pixelRatio))
        let dashes = layer.hasValue("line-dasharray", kind: .paint) ? layer.paint("line-dasharray").evaluateNumbers(ctx) : []
        let dashRow = dashes.isEmpty ? nil : renderer.dashAtlas.row(for: dashes)
        let patternLength = dashes.reduce(0, +)
        let floorWidth = max(1, layer.paint("line-width").evaluateNumber(ctx).rounded(.down))
        if let dashRow {
            renderer.dashAtlas.bind(context, unit: 0)
            gl.Uniform1i(program.location("u_dash_image"), 0)
            gl.Uniform1f(program.location("u_dashed"), 1)
            gl.Uniform1f(program.location("u_dash_row"), Float((Double(dashRow) + 0.5) / Double(renderer.dashAtlas.height)))
            gl.Uniform1f(program.location("u_sdfgamma"),
                         Float(1.0 / (patternLength * frame.pixelRatio) / 2 / floorWidth * 256 / 255 ))
        } else {
            gl.Uniform1f(program.location("u_dashed"), 0)
        }
        for tile in item.tiles {
            guard let box = tile.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard let triangles = g.indices.first, triangles.count > 0 else { continue }
            context.apply(DrawModes(stencil: stencil(for: tile.tile), color: .alphaBlended))
            setMatrix(program, matrix(for: tile.tile, translate: translate, anchor: anchor))
            let ratio = 1 / t.pixelsToTileUnits(tile.tile.id, 1)
            gl.Uniform1f(program.location("u_ratio"), Float(ratio))
            if dashRow != nil {
                gl.Uniform2f(program.location("u_patternscale"), Float(ratio / (patternLength * floorWidth)), 0)
            }
            let paint = bindPaint(Painter.lineAttributes, layer: layer, geometry: g, box: box)
            bindAttributes(.line, geometry: g, paint: paint)
            gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), triangles.buffer.id)
            gl.DrawElements(GLenum(GL_TRIANGLES), GLsizei(triangles.count), GLenum(GL_UNSIGNED_INT), nil)
        }
    }
}
