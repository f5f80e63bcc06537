import Foundation
import GLSnapGL
import GLSnapLayout
import GLSnapStyle

extension Painter {
    static func linePatternAttributes(_ line: LineLayer) -> [PaintAttribute] { [
        PaintAttribute(attribute: "a_opacity", property: line.opacity),
        PaintAttribute(attribute: "a_width", property: line.width),
        PaintAttribute(attribute: "a_gapwidth", property: line.gapWidth),
        PaintAttribute(attribute: "a_offset", property: line.offset),
        PaintAttribute(attribute: "a_blur", property: line.blur),
    ] }

    /// line with line-pattern: the image repeated along the line, its height in pixels kept and
    /// cropped to the line's width (line-color and line-dasharray do not apply).
    mutating func drawLinePattern(_ item: FrameLayer, _ line: LineLayer) throws {
        let layer = item.layer
        let (translate, anchor) = self.translate(line.translate, line.translateAnchor)
        let pattern = try renderer.programs.program(LinePatternProgram.self, define: lineVariant(nil))
        let u = pattern.uniforms
        context.use(pattern.program)
        guard bindPatternAtlas(u) else { return }
        u.unitsToPixels.set(Float(1 / pixelsToClipUnits.x), Float(1 / pixelsToClipUnits.y))
        u.devicePixelRatio.set(Float(frame.pixelRatio))
        let attributes = Painter.linePatternAttributes(line)
        for tile in item.tiles {
            guard let box = tile.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard let triangles = g.indices.first, triangles.count > 0 else { continue }
            guard var paint = bindPattern(line.pattern, layer: layer, geometry: g, box: box) else { return }
            paint.merge(bindPaint(attributes, layer: layer, geometry: g, box: box)) { a, _ in a }
            u.matrix.set(matrix(for: tile.tile, translate: translate, anchor: anchor))
            u.ratio.set(Float(1 / frame.transform.pixelsToTileUnits(tile.tile.id, 1)))
            setGlobeLine(u.globeLine, u.globeTile, tile: tile.tile.id)
            let tileSize = Transform.tileSize * exp2(patternZoom - Double(tile.tile.id.z))
            u.tileZoomRatio.set(Float(tileSize / Double(TileExtent.extent)))
            bindAttributes(.linePattern, geometry: g, paint: paint)
            pattern.program.draw(indices: triangles.buffer, count: triangles.count,
                                 modes: DrawModes(clip: clip(for: tile.tile), color: .alphaBlended))
        }
    }
}
