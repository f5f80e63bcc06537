import Foundation
import GLSnapGL
import GLSnapLayout
import GLSnapStyle

/// The uniforms of the programs that sample the pattern atlas.
protocol PatternAtlasUniforms {
    var image: UniformSampler { get }
    var texsize: UniformVec2 { get }
}

/// The uniforms of the programs that place a pattern in a tile's pixel space.
protocol PatternTileUniforms {
    var pixelCoordUpper: UniformVec2 { get }
    var pixelCoordLower: UniformVec2 { get }
    var tileUnitsToPixels: UniformFloat { get }
}

extension FillPatternProgram.Uniforms: PatternAtlasUniforms, PatternTileUniforms {}
extension FillOutlinePatternProgram.Uniforms: PatternAtlasUniforms, PatternTileUniforms {}
extension BackgroundPatternProgram.Uniforms: PatternAtlasUniforms, PatternTileUniforms {}
extension FillExtrusionPatternProgram.Uniforms: PatternAtlasUniforms, PatternTileUniforms {}
extension LinePatternProgram.Uniforms: PatternAtlasUniforms {}

extension Painter {
    /// The integer zoom patterns are sized and chosen at (MapLibre's `tileZoom`).
    var patternZoom: Double { max(0, zoom.rounded(.down)) }

    /// Binds the pattern atlas to texture unit 0 for a program's uniforms `u` (`u_image`, `u_texsize`), linear
    /// filtered as MapLibre samples patterns. False when the frame has no pattern atlas.
    func bindPatternAtlas(_ u: some PatternAtlasUniforms) -> Bool {
        guard let patterns = frame.patterns else { return false }
        let texture = renderer.symbolTextures.texture(for: patterns.atlas, context: context)
        context.bind(texture, unit: 0, sampler: .linear)
        u.image.set(unit: 0)
        u.texsize.set(Float(texture.width), Float(texture.height))
        return true
    }

    /// The position of a feature-constant pattern at the integer zoom; nil when its image is missing.
    func constantPattern(_ value: PropertyValue) -> PatternPosition? {
        guard let patterns = frame.patterns,
              let image = PatternAtlas.image(value.evaluate(EvaluationContext(zoom: patternZoom))) else { return nil }
        return patterns.position(PatternAtlas.key(name: image.name, pixelRatio: frame.pixelRatio))
    }

    /// `a_pattern` and `a_pixel_ratio` for one tile's geometry: constants for a feature-constant
    /// pattern, else per-vertex buffers (a feature whose image is missing gets an empty
    /// rectangle, which the shaders discard). Nil when a constant pattern's image is missing.
    func bindPattern(_ pattern: LayerProperty<Value>, layer: StyleLayer, geometry g: GPUGeometry, box: GeometryBox) -> [String: PaintBinding]? {
        let value = pattern.value
        if value.isFeatureConstant {
            guard let p = constantPattern(value) else { return nil }
            return ["a_pattern": .constant(p.corners), "a_pixel_ratio": .constant([Float(p.pixelRatio)])]
        }
        guard let patterns = frame.patterns else { return nil }
        let key = PaintKey(layer: layer.id, property: pattern.name, generation: frame.paintGeneration(layer.id), zoom: patternZoom, components: 4)
        if g.paint["a_pattern"]?.key == key { return [:] }
        let geometry = box.geometry
        var corners = [Float](repeating: 0, count: geometry.vertexCount * 4)
        var ratios = [Float](repeating: 1, count: geometry.vertexCount)
        var ctx = EvaluationContext(zoom: patternZoom)
        for span in geometry.spans {
            ctx.feature = geometry.features[Int(span.feature)]
            guard let image = PatternAtlas.image(value.evaluate(ctx)),
                  let p = patterns.position(PatternAtlas.key(name: image.name, pixelRatio: frame.pixelRatio)) else { continue }
            let c = p.corners, r = Float(p.pixelRatio)
            let start = Int(span.vertexStart), end = min(start + Int(span.vertexCount), geometry.vertexCount)
            guard start < end else { continue }
            for v in start..<end {
                corners[v * 4] = c[0]; corners[v * 4 + 1] = c[1]; corners[v * 4 + 2] = c[2]; corners[v * 4 + 3] = c[3]
                ratios[v] = r
            }
        }
        g.paint["a_pattern"] = (key, VertexBuffer(context: context, data: corners))
        var ratioKey = key
        ratioKey.components = 1
        g.paint["a_pixel_ratio"] = (ratioKey, VertexBuffer(context: context, data: ratios))
        return [:]
    }

    /// Where a tile lies in the pattern's pixel space at the integer zoom: `u_pixel_coord_upper`,
    /// `u_pixel_coord_lower` and `u_tile_units_to_pixels`.
    func setPatternTileUniforms(_ u: some PatternTileUniforms, tile: CoveredTile) {
        let z = Double(tile.id.z)
        // Pixels per tile at the integer zoom (a tile of zoom z spans 512 · 2^(zoom − z) pixels).
        let tileSize = Transform.tileSize * exp2(patternZoom - z)
        let pixelX = tileSize * (Double(tile.id.x) + Double(tile.wrap) * exp2(z))
        let pixelY = tileSize * Double(tile.id.y)
        let split = 65536.0
        let upperX = (pixelX / split).rounded(.down), upperY = (pixelY / split).rounded(.down)
        u.pixelCoordUpper.set(Float(upperX), Float(upperY))
        u.pixelCoordLower.set(Float(pixelX - upperX * split), Float(pixelY - upperY * split))
        u.tileUnitsToPixels.set(Float(tileSize / Double(TileExtent.extent)))
    }
}
