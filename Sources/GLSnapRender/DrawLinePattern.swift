import CMesa
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
        let program = try renderer.programs.program(.linePattern)
        context.use(program)
        guard bindPatternAtlas(program) else { return }
        gl.Uniform2f(program.location("u_units_to_pixels"), Float(1 / pixelsToClipUnits.x), Float(1 / pixelsToClipUnits.y))
        gl.Uniform1f(program.location("u_device_pixel_ratio"), Float(frame.pixelRatio))
        for tile in item.tiles {
            guard let box = tile.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard let triangles = g.indices.first, triangles.count > 0 else { continue }
            guard var paint = bindPattern(line.pattern, layer: layer, geometry: g, box: box) else { return }
            paint.merge(bindPaint(Painter.linePatternAttributes(line), layer: layer, geometry: g, box: box)) { a, _ in a }
            context.apply(DrawModes(stencil: stencil(for: tile.tile), color: .alphaBlended))
            setMatrix(program, matrix(for: tile.tile, translate: translate, anchor: anchor))
            gl.Uniform1f(program.location("u_ratio"), Float(1 / frame.transform.pixelsToTileUnits(tile.tile.id, 1)))
            let tileSize = Transform.tileSize * exp2(patternZoom - Double(tile.tile.id.z))
            gl.Uniform1f(program.location("u_tile_zoom_ratio"), Float(tileSize / Double(TileExtent.extent)))
            bindAttributes(.linePattern, geometry: g, paint: paint)
            gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), triangles.buffer.id)
            gl.DrawElements(GLenum(GL_TRIANGLES), GLsizei(triangles.count), GLenum(GL_UNSIGNED_INT), nil)
        }
    }
}
