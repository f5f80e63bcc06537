import GLSnapGL
import GLSnapStyle

extension Painter {
    static func fillAttributes(_ fill: FillLayer) -> [PaintAttribute] { [
        PaintAttribute(attribute: "a_color", property: fill.color),
        PaintAttribute(attribute: "a_opacity", property: fill.opacity),
    ] }

    /// The antialiasing outline's width in pixels as drawn: 2, of which the shader keeps the pixels
    /// a 1-pixel line lights (GL JS draws its outline at WebGL's default width, 1; MapLibre Native
    /// asks for 2; llvmpipe's 1-pixel lines cost about 10% more CPU per snapshot than wide ones).
    static let fillOutlineWidth: Float = 2

    /// fill: triangles, then (fill-antialias) the outline as 1-pixel lines in the outline color,
    /// which is the fill color when fill-outline-color is not set (MapLibre's rule).
    mutating func drawFill(_ item: FrameLayer, _ fillLayer: FillLayer) throws {
        let layer = item.layer
        if fillLayer.pattern.isSet { return try drawFillPattern(item, fillLayer) }
        let ctx = EvaluationContext(zoom: zoom)
        let (translate, anchor) = self.translate(fillLayer.translate, fillLayer.translateAnchor)
        let antialias = fillLayer.antialias.evaluate(ctx)
        // Opaque fills replace what is under them: blending would give the same bytes, slower.
        let fillColor = fillLayer.color, fillOpacity = fillLayer.opacity
        let opaque = fillColor.isFeatureConstant && fillOpacity.isFeatureConstant
            && fillColor.evaluate(ctx).a >= 1 && fillOpacity.evaluate(ctx) >= 1
        let fillColorMode: ColorMode = opaque ? .unblended : .alphaBlended
        let fill = try renderer.programs.program(FillProgram.self)
        let attributes = Painter.fillAttributes(fillLayer)
        for t in item.tiles {
            guard let box = t.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard g.indices.count >= 1, g.indices[0].count > 0 else { continue }
            context.use(fill.program)
            fill.uniforms.matrix.set(matrix(for: t.tile, translate: translate, anchor: anchor))
            let paint = bindPaint(attributes, layer: layer, geometry: g, box: box)
            bindAttributes(.fill, geometry: g, paint: paint)
            fill.program.draw(indices: g.indices[0].buffer, count: g.indices[0].count,
                              modes: DrawModes(clip: clip(for: t.tile), color: fillColorMode))
        }
        guard antialias else { return }
        try drawFillOutline(item, fillLayer, translate: translate, anchor: anchor)
    }

    /// fill-antialias: the outline as 1-pixel lines in the outline color (the fill color when
    /// fill-outline-color is not set).
    mutating func drawFillOutline(_ item: FrameLayer, _ fillLayer: FillLayer, translate: [Double], anchor: TranslateAnchor) throws {
        let layer = item.layer
        let outlineAttributes = [
            PaintAttribute(attribute: "a_outline_color", property: fillLayer.outlineColor.isSet ? fillLayer.outlineColor : fillLayer.color),
            PaintAttribute(attribute: "a_opacity", property: fillLayer.opacity),
        ]
        let outline = try renderer.programs.program(FillOutlineProgram.self)
        context.use(outline.program)
        outline.uniforms.world.set(Float(frame.width), Float(frame.height))
        for t in item.tiles {
            guard let box = t.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard g.indices.count >= 2, g.indices[1].count > 0 else { continue }
            outline.uniforms.matrix.set(matrix(for: t.tile, translate: translate, anchor: anchor))
            // The outline's per-vertex paint shares the geometry's paint cache only when it reads the
            // same properties; evaluate its own constants here.
            let paint = bindPaint(outlineAttributes, layer: layer, geometry: g, box: box)
            bindAttributes(.fillOutline, geometry: g, paint: paint)
            outline.program.draw(.lines, indices: g.indices[1].buffer, count: g.indices[1].count,
                                 modes: DrawModes(clip: clip(for: t.tile), color: .alphaBlended, lineWidth: Painter.fillOutlineWidth))
        }
    }
}
