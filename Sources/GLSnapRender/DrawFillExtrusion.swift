import CMesa
import Foundation
import GLSnapGL
import GLSnapLayout
import GLSnapStyle

extension Painter {
    static func fillExtrusionAttributes(_ extrusion: FillExtrusionLayer) -> [PaintAttribute] { [
        PaintAttribute(attribute: "a_color", property: extrusion.color),
        PaintAttribute(attribute: "a_height", property: extrusion.height),
        PaintAttribute(attribute: "a_base", property: extrusion.base),
    ] }
    static func fillExtrusionPatternAttributes(_ extrusion: FillExtrusionLayer) -> [PaintAttribute] { [
        PaintAttribute(attribute: "a_height", property: extrusion.height),
        PaintAttribute(attribute: "a_base", property: extrusion.base),
    ] }

    /// fill-extrusion: depth-tested walls and roofs. Opaque layers draw once; translucent ones
    /// draw depth first, then color only the nearest surface, each pixel once (stencil), so
    /// hidden faces do not show through (MapLibre's two passes). With fill-extrusion-pattern the
    /// faces show the image instead of the color.
    mutating func drawFillExtrusion(_ item: FrameLayer, _ extrusion: FillExtrusionLayer) throws {
        let ctx = EvaluationContext(zoom: zoom)
        let opacity = extrusion.opacity.evaluate(ctx)
        guard opacity > 0 else { return }
        let (translate, anchor) = self.translate(extrusion.translate, extrusion.translateAnchor)
        let patterned = extrusion.pattern.isSet
        let shader: ShaderID = patterned ? .fillExtrusionPattern : .fillExtrusion
        let program = try renderer.programs.program(shader)
        context.use(program)
        if patterned { guard bindPatternAtlas(program) else { return } }
        let light = ExtrusionLight(frame.lightProperties, zoom: zoom, bearing: frame.transform.bearing)
        gl.Uniform3f(program.location("u_lightpos"), Float(light.position.0), Float(light.position.1), Float(light.position.2))
        gl.Uniform3f(program.location("u_lightcolor"), Float(light.color.r), Float(light.color.g), Float(light.color.b))
        gl.Uniform1f(program.location("u_lightintensity"), Float(light.intensity))
        gl.Uniform1f(program.location("u_vertical_gradient"), extrusion.verticalGradient.evaluate(ctx) ? 1 : 0)
        gl.Uniform1f(program.location("u_opacity"), Float(opacity))
        let depth = DepthMode(function: GLenum(GL_LEQUAL), writes: true)
        // Walls facing away are culled (MapLibre's backCCW): seen through a translucent or
        // patterned roof, only the near walls show.
        let cull = CullMode()
        let draw = ExtrusionDraw(program: program, shader: shader, translate: translate, anchor: anchor, extrusion: extrusion)
        if opacity >= 1 {
            drawExtrusionTiles(item, draw, modes: DrawModes(depth: depth, color: .alphaBlended, cull: cull))
        } else {
            drawExtrusionTiles(item, draw, modes: DrawModes(depth: depth, color: .disabled, cull: cull))
            releaseStencil()
            let once = StencilMode(function: GLenum(GL_NOTEQUAL), reference: 1, writeMask: 0xFF, pass: GLenum(GL_REPLACE))
            drawExtrusionTiles(item, draw, modes: DrawModes(depth: depth, stencil: once, color: .alphaBlended, cull: cull))
            releaseStencil()
        }
    }

    /// Extrusions are moved down by 1 / this many pixels (see drawExtrusionTiles).
    static let extrusionTieBreakDivisor = 64.0

    private struct ExtrusionDraw {
        var program: Program
        var shader: ShaderID
        var translate: [Double]
        var anchor: TranslateAnchor
        var extrusion: FillExtrusionLayer
    }

    private func drawExtrusionTiles(_ item: FrameLayer, _ draw: ExtrusionDraw, modes: DrawModes) {
        let program = draw.program
        for tile in item.tiles {
            guard let box = tile.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard let triangles = g.indices.first, triangles.count > 0 else { continue }
            var paint: [String: PaintBinding]
            if draw.shader == .fillExtrusionPattern {
                guard let pattern = bindPattern(draw.extrusion.pattern, layer: item.layer, geometry: g, box: box) else { return }
                paint = pattern
                paint.merge(bindPaint(Painter.fillExtrusionPatternAttributes(draw.extrusion), layer: item.layer, geometry: g, box: box)) { a, _ in a }
                setPatternTileUniforms(program, tile: tile.tile)
                // Meters up a wall to tile units of the image (negative: the image's top is up).
                gl.Uniform1f(program.location("u_height_factor"), Float(-exp2(Double(tile.tile.id.z)) / Transform.tileSize / 8))
            } else {
                paint = bindPaint(Painter.fillExtrusionAttributes(draw.extrusion), layer: item.layer, geometry: g, box: box)
            }
            context.apply(modes)
            var m = matrix(for: tile.tile, translate: draw.translate, anchor: draw.anchor)
            // Down by 1/64 pixel: where a roof meets a wall exactly on a row of pixel centers,
            // the reference GPU gives the row to the roof above; llvmpipe would give it to the wall.
            let dy = Float(-2.0 / Painter.extrusionTieBreakDivisor / Double(frame.height))
            for col in 0..<4 { m[col * 4 + 1] += dy * m[col * 4 + 3] }
            setMatrix(program, m)
            bindAttributes(draw.shader, geometry: g, paint: paint)
            gl.BindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), triangles.buffer.id)
            gl.DrawElements(GLenum(GL_TRIANGLES), GLsizei(triangles.count), GLenum(GL_UNSIGNED_INT), nil)
        }
    }
}
