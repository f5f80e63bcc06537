import Foundation
import GLSnapGL
import GLSnapLayout
import GLSnapStyle

/// The uniforms both extrusion programs have.
protocol ExtrusionUniforms {
    var matrix: UniformMat4 { get }
    var lightpos: UniformVec3 { get }
    var lightcolor: UniformVec3 { get }
    var lightintensity: UniformFloat { get }
    var verticalGradient: UniformFloat { get }
    var opacity: UniformFloat { get }
}

extension FillExtrusionProgram.Uniforms: ExtrusionUniforms {}
extension FillExtrusionPatternProgram.Uniforms: ExtrusionUniforms {}

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

    /// fill-extrusion: depth-tested walls and roofs. Opaque layers draw once; translucent and
    /// patterned ones draw depth first, then color only the nearest surface, each pixel once
    /// (stencil), so hidden faces and other tiles' copies do not show through (MapLibre's two passes). With fill-extrusion-pattern the
    /// faces show the image instead of the color.
    mutating func drawFillExtrusion(_ item: FrameLayer, _ extrusion: FillExtrusionLayer) throws {
        let ctx = EvaluationContext(zoom: zoom)
        let opacity = extrusion.opacity.evaluate(ctx)
        guard opacity > 0 else { return }
        let (translate, anchor) = self.translate(extrusion.translate, extrusion.translateAnchor)
        let patterned = extrusion.pattern.isSet
        let program: Program, u: any ExtrusionUniforms, pattern: FillExtrusionPatternProgram.Uniforms?
        if patterned {
            let p = try renderer.programs.program(FillExtrusionPatternProgram.self)
            (program, u, pattern) = (p.program, p.uniforms, p.uniforms)
            context.use(program)
            guard bindPatternAtlas(p.uniforms) else { return }
        } else {
            let p = try renderer.programs.program(FillExtrusionProgram.self)
            (program, u, pattern) = (p.program, p.uniforms, nil)
            context.use(program)
            p.uniforms.basement.set(frame.terrain == nil ? 0 : Painter.extrusionBasement)
        }
        let light = ExtrusionLight(frame.lightProperties, zoom: zoom, bearing: frame.viewportBearing)
        u.lightpos.set(Float(light.position.0), Float(light.position.1), Float(light.position.2))
        u.lightcolor.set(Float(light.color.r), Float(light.color.g), Float(light.color.b))
        u.lightintensity.set(Float(light.intensity))
        u.verticalGradient.set(extrusion.verticalGradient.evaluate(ctx) ? 1 : 0)
        u.opacity.set(Float(opacity))
        let depth = DepthMode(function: .lessOrEqual, writes: true)
        // Walls facing away are culled (MapLibre's backCCW): seen through a translucent or
        // patterned roof, only the near walls show.
        let cull = CullMode()
        let draw = ExtrusionDraw(program: program, matrix: u.matrix, pattern: pattern, translate: translate, anchor: anchor,
                                 extrusion: extrusion)
        // A pattern's image may be translucent, so patterned layers also color each pixel once:
        // a building in several tiles' buffers is drawn by each of them, at its own phase (GL JS
        // takes this path for every patterned layer).
        if opacity >= 1 && !patterned {
            drawExtrusionTiles(item, draw, modes: DrawModes(depth: depth, color: .alphaBlended, cull: cull))
        } else {
            drawExtrusionTiles(item, draw, modes: DrawModes(depth: depth, color: .disabled, cull: cull))
            releaseStencil()
            let once = StencilMode(function: .notEqual, reference: 1, writeMask: 0xFF, pass: .replace)
            drawExtrusionTiles(item, draw, modes: DrawModes(depth: depth, stencil: once, color: .alphaBlended, cull: cull))
            releaseStencil()
        }
    }

    /// Heights in meters are scaled to pixels as MapLibre Native scales them: by its meters per
    /// pixel, on a sphere of radius 6378137 m (`util::EARTH_RADIUS_M`), where the camera (and GL JS
    /// 6) use 6371008.8 m; this factor turns the camera's scale into Native's. The older render
    /// suite, recorded with Native, puts every roof and wall edge on its pixel row with it (34 of
    /// its 35 static extrusion cases pass, against 25 at GL JS's scale, which needed the whole
    /// image moved down by 1/64 pixel to get that far); GL JS's own extrusion cases pass at either.
    static let extrusionHeightScale = Float(Mercator.earthCircumference / (2 * Double.pi * Mercator.epsg3857Radius))

    /// GL JS's order for extrusion tiles (its translucent pass, `coordsDescending`): deeper
    /// tiles first, then the world in view before its copies, then north to south and west to
    /// east. With the stencilled pass the first tile to reach a pixel colors it, which picks the
    /// pattern's phase where a building lies in several tiles' buffers (patterned layers only).
    static func extrusionDrawOrder(_ tiles: [FrameTile]) -> [FrameTile] { translucentPassOrder(tiles) }

    private struct ExtrusionDraw {
        var program: Program
        var matrix: UniformMat4
        /// The pattern program's uniforms; nil: drawn in color.
        var pattern: FillExtrusionPatternProgram.Uniforms?
        var translate: [Double]
        var anchor: TranslateAnchor
        var extrusion: FillExtrusionLayer
    }

    private func drawExtrusionTiles(_ item: FrameLayer, _ draw: ExtrusionDraw, modes: DrawModes) {
        // The order only shows with a pattern (each tile's copy has its own phase); colored
        // layers keep the cover's order.
        for tile in draw.pattern == nil ? item.tiles : Painter.extrusionDrawOrder(item.tiles) {
            guard let box = tile.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard let triangles = g.indices.first, triangles.count > 0 else { continue }
            var paint: [String: PaintBinding]
            let shader: ShaderID
            if let u = draw.pattern {
                shader = .fillExtrusionPattern
                guard let pattern = bindPattern(draw.extrusion.pattern, layer: item.layer, geometry: g, box: box) else { return }
                paint = pattern
                paint.merge(bindPaint(Painter.fillExtrusionPatternAttributes(draw.extrusion), layer: item.layer, geometry: g, box: box)) { a, _ in a }
                setPatternTileUniforms(u, tile: tile.tile)
                // Meters up a wall to tile units of the image (negative: the image's top is up).
                u.heightFactor.set(Float(-exp2(Double(tile.tile.id.z)) / Transform.tileSize / 8))
            } else {
                shader = .fillExtrusion
                paint = bindPaint(Painter.fillExtrusionAttributes(draw.extrusion), layer: item.layer, geometry: g, box: box)
            }
            var m = matrix(for: tile.tile, translate: draw.translate, anchor: draw.anchor)
            for row in 8..<12 { m[row] *= Painter.extrusionHeightScale }   // z's column: meters
            draw.matrix.set(m)
            bindAttributes(shader, geometry: g, paint: paint)
            let elevations = bindElevation(shader, tile: tile.tile, box: box, anchor: .featureCentroid)
            draw.program.draw(indices: triangles.buffer, count: triangles.count, modes: modes)
            withExtendedLifetime(elevations) {}
        }
    }
}
