import GLSnapGL
import GLSnapLayout
import GLSnapStyle

extension Painter {
    static func lineGradientAttributes(_ line: LineLayer) -> [PaintAttribute] { [
        PaintAttribute(attribute: "a_opacity", property: line.opacity),
        PaintAttribute(attribute: "a_width", property: line.width),
        PaintAttribute(attribute: "a_gapwidth", property: line.gapWidth),
        PaintAttribute(attribute: "a_offset", property: line.offset),
        PaintAttribute(attribute: "a_blur", property: line.blur),
    ] }

    /// Dashes scale with the width at the integer zoom.
    static func lineFloorWidthAttribute(_ line: LineLayer) -> PaintAttribute {
        PaintAttribute(attribute: "a_floorwidth", property: line.width, integerZoom: true)
    }

    /// line with line-gradient: the color comes from the gradient's ramp at each vertex's
    /// progress along the whole line (the bucket's `a_lineprogress`; line-color does not apply), cut
    /// into dashes by line-dasharray as plain lines are.
    mutating func drawLineGradient(_ item: FrameLayer, _ line: LineLayer) throws {
        let layer = item.layer
        let (translate, anchor) = self.translate(line.translate, line.translateAnchor)
        let dashes = LineDashes(line, zoom: zoom, atlas: renderer.dashAtlas, perFeature: false)
        let gradient = try renderer.programs.program(LineGradientProgram.self, define: lineVariant(dashes == nil ? nil : "LINE_DASHED"))
        let u = gradient.uniforms
        context.use(gradient.program)
        let ramp = renderer.colorRamps.texture(for: layer, ramp: line.gradient, input: .lineProgress, generation: frame.paintGeneration(layer.id), context: context)
        // Making a texture binds it to the active unit: the atlas (made here when it changed)
        // before the ramp is bound.
        dashes?.bind(u, atlas: renderer.dashAtlas, context: context, unit: 1, pixelRatio: frame.pixelRatio)
        context.bind(ramp, unit: 0)
        u.image.set(unit: 0)
        let steps = GradientSteps(line.gradient.value)
        u.stepCount.set(Int32(steps?.count ?? 0))
        if let steps {
            u.stepStarts.set(steps.starts)
            u.stepColors.set(steps.colors)
        }
        u.unitsToPixels.set(Float(1 / pixelsToClipUnits.x), Float(1 / pixelsToClipUnits.y))
        u.devicePixelRatio.set(Float(frame.pixelRatio))
        let attributes = Painter.lineGradientAttributes(line) + (dashes == nil ? [] : [Painter.lineFloorWidthAttribute(line)])
        for tile in item.tiles {
            guard let box = tile.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            // Geometry built before the layer had a gradient has no progress to color by.
            guard let triangles = g.indices.first, triangles.count > 0, g.streams["a_lineprogress"] != nil else { continue }
            u.matrix.set(matrix(for: tile.tile, translate: translate, anchor: anchor))
            u.ratio.set(Float(1 / frame.transform.pixelsToTileUnits(tile.tile.id, 1)))
            setGlobeLine(u.globeLine, u.globeTile, tile: tile.tile.id)
            dashes?.bindTile(u, tileZoom: tile.tile.id.z, atlas: renderer.dashAtlas)
            if steps != nil { u.stepResolution.set(GradientSteps.resolution(maxLineLength: box.geometry.maxLineLength, tile: tile.tile)) }
            let paint = bindPaint(attributes, layer: layer, geometry: g, box: box)
            bindAttributes(.lineGradient, geometry: g, paint: paint)
            gradient.program.draw(indices: triangles.buffer, count: triangles.count,
                                  modes: DrawModes(clip: clip(for: tile.tile), color: .alphaBlended))
        }
    }
}
