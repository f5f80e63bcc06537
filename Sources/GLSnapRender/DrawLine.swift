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
        let (translate, anchor) = self.translate(line.translate, line.translateAnchor)
        let dashes = LineDashes(line, zoom: zoom, atlas: renderer.dashAtlas)
        let program = try renderer.programs.program(LineProgram.self, define: dashes == nil ? nil : "LINE_DASHED")
        let u = program.uniforms
        context.use(program.program)
        let t = frame.transform
        u.unitsToPixels.set(Float(1 / pixelsToClipUnits.x), Float(1 / pixelsToClipUnits.y))
        u.devicePixelRatio.set(Float(frame.pixelRatio))
        dashes?.bind(u, atlas: renderer.dashAtlas, context: context, unit: 0, pixelRatio: frame.pixelRatio)
        let attributes = Painter.lineAttributes(line)
        for tile in item.tiles {
            guard let box = tile.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard let triangles = g.indices.first, triangles.count > 0 else { continue }
            u.matrix.set(matrix(for: tile.tile, translate: translate, anchor: anchor))
            let ratio = 1 / t.pixelsToTileUnits(tile.tile.id, 1)
            u.ratio.set(Float(ratio))
            dashes?.bindTile(u, tileZoom: tile.tile.id.z, atlas: renderer.dashAtlas)
            let paint = bindPaint(attributes, layer: layer, geometry: g, box: box)
            bindAttributes(.line, geometry: g, paint: paint)
            program.program.draw(indices: triangles.buffer, count: triangles.count,
                                 modes: DrawModes(stencil: stencil(for: tile.tile), color: .alphaBlended))
        }
    }
}
