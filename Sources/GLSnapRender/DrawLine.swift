import Foundation
import GLSnapGL
import GLSnapLayout
import GLSnapStyle

extension Painter {
    static func lineAttributes(_ line: LineLayer) -> [PaintAttribute] { [
        PaintAttribute(attribute: "a_color", property: line.color),
        PaintAttribute(attribute: "a_opacity", property: line.opacity),
        PaintAttribute(attribute: "a_width", property: line.width),
        PaintAttribute(attribute: "a_gapwidth", property: line.gapWidth),
        PaintAttribute(attribute: "a_offset", property: line.offset),
        PaintAttribute(attribute: "a_blur", property: line.blur),
        PaintAttribute(attribute: "a_floorwidth", property: line.width, integerZoom: true),
    ] }

    /// line: extruded triangles; line-dasharray through the dash atlas; line-pattern and
    /// line-gradient in DrawLinePattern.swift and DrawLineGradient.swift.
    mutating func drawLine(_ item: FrameLayer, _ line: LineLayer) throws {
        let layer = item.layer
        if line.pattern.isSet { return try drawLinePattern(item, line) }
        if line.gradient.isSet { return try drawLineGradient(item, line) }
        let ctx = EvaluationContext(zoom: zoom)
        let (translate, anchor) = self.translate(line.translate, line.translateAnchor)
        let dashes = line.dasharray.isSet ? line.dasharray.evaluate(ctx) : []
        let roundDashes = line.cap.evaluate(ctx) == .round
        let dashEntry = dashes.isEmpty ? nil : renderer.dashAtlas.entry(for: dashes, round: roundDashes)
        let program = try renderer.programs.program(LineProgram.self, define: dashEntry == nil ? nil : "LINE_DASHED")
        let u = program.uniforms
        context.use(program.program)
        let t = frame.transform
        u.unitsToPixels.set(Float(1 / pixelsToClipUnits.x), Float(1 / pixelsToClipUnits.y))
        u.devicePixelRatio.set(Float(frame.pixelRatio))
        let patternLength = dashes.reduce(0, +)
        // Dash patterns are sized at the integer zoom, as MapLibre's cross-faded dasharray is.
        let integerZoom = zoom.rounded(.down)
        var dashRowScale = 0.0
        if let dashEntry {
            renderer.dashAtlas.bind(context, unit: 0)
            u.dashImage.set(unit: 0)
            let atlasHeight = Double(renderer.dashAtlas.height)
            let centerRow = Double(dashEntry.firstRow) + Double(dashEntry.rowCount / 2) + 0.5
            u.dashRow.set(Float(centerRow / atlasHeight))
            // Across the line the normal (-1...1) spans the pattern's rows either side of its center.
            dashRowScale = -Double(dashEntry.rowCount / 2) / atlasHeight
            u.sdfgamma.set(Float(Double(DashAtlas.width) / (patternLength * 256 * frame.pixelRatio) / 2))
        }
        let attributes = Painter.lineAttributes(line)
        for tile in item.tiles {
            guard let box = tile.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard let triangles = g.indices.first, triangles.count > 0 else { continue }
            u.matrix.set(matrix(for: tile.tile, translate: translate, anchor: anchor))
            let ratio = 1 / t.pixelsToTileUnits(tile.tile.id, 1)
            u.ratio.set(Float(ratio))
            if dashEntry != nil {
                let unitsPerPattern = patternLength * Double(TileExtent.extent) / (512 * exp2(integerZoom - Double(tile.tile.id.z)))
                u.patternscale.set(Float(1 / unitsPerPattern), Float(dashRowScale))
            }
            let paint = bindPaint(attributes, layer: layer, geometry: g, box: box)
            bindAttributes(.line, geometry: g, paint: paint)
            program.program.draw(indices: triangles.buffer, count: triangles.count,
                                 modes: DrawModes(clip: clip(for: tile.tile), color: .alphaBlended))
        }
    }
}
