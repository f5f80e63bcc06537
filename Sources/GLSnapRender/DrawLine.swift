import Foundation
import GLSnapGL
import GLSnapLayout
import GLSnapStyle

extension Painter {
    static let lineAttributes = [
        PaintAttribute(attribute: "a_color", property: "line-color", kind: .color),
        PaintAttribute(attribute: "a_opacity", property: "line-opacity", kind: .number),
        PaintAttribute(attribute: "a_width", property: "line-width", kind: .number),
        PaintAttribute(attribute: "a_gapwidth", property: "line-gap-width", kind: .number),
        PaintAttribute(attribute: "a_offset", property: "line-offset", kind: .number),
        PaintAttribute(attribute: "a_blur", property: "line-blur", kind: .number),
        PaintAttribute(attribute: "a_floorwidth", property: "line-width", kind: .number, integerZoom: true),
    ]

    /// line: extruded triangles; line-dasharray through the dash atlas; line-pattern and
    /// line-gradient in DrawLinePattern.swift and DrawLineGradient.swift.
    mutating func drawLine(_ item: FrameLayer) throws {
        let layer = item.layer
        if layer.hasValue("line-pattern", kind: .paint) { return try drawLinePattern(item) }
        if layer.hasValue("line-gradient", kind: .paint) { return try drawLineGradient(item) }
        let ctx = EvaluationContext(zoom: zoom)
        let (translate, anchor) = self.translate(layer, "line")
        let dashes = layer.hasValue("line-dasharray", kind: .paint) ? layer.paint("line-dasharray").evaluateNumbers(ctx) : []
        let roundDashes = layer.layout("line-cap").evaluateString(ctx) == "round"
        let dashEntry = dashes.isEmpty ? nil : renderer.dashAtlas.entry(for: dashes, round: roundDashes)
        let line = try renderer.programs.program(LineProgram.self, define: dashEntry == nil ? nil : "LINE_DASHED")
        let u = line.uniforms
        context.use(line.program)
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
            let paint = bindPaint(Painter.lineAttributes, layer: layer, geometry: g, box: box)
            bindAttributes(.line, geometry: g, paint: paint)
            line.program.draw(indices: triangles.buffer, count: triangles.count,
                              modes: DrawModes(stencil: stencil(for: tile.tile), color: .alphaBlended))
        }
    }
}
