import Foundation
import GLSnapGL
import GLSnapLayout
import GLSnapStyle

/// The uniforms of shaders/include/line_dash.glsl, which line and line_gradient share.
protocol LineDashUniforms {
    var dashImage: UniformSampler { get }
    var patternscale: UniformVec2 { get }
    var dashRow: UniformFloat { get }
    var sdfgamma: UniformFloat { get }
}

extension LineProgram.Uniforms: LineDashUniforms {}
extension LineGradientProgram.Uniforms: LineDashUniforms {}

/// A line layer's line-dasharray for one frame: one pattern for the layer (where it lies in the dash
/// atlas and how long it is), or, when the dasharray depends on the feature, one per feature
/// (`featurePatterns`). Nil when the layer has no dashes (or an empty pattern).
struct LineDashes {
    /// The layer's pattern; nil: each feature has its own.
    let entry: DashAtlas.Entry?
    /// Dash and gap lengths summed, in line widths (1 for per-feature patterns: the uniforms are
    /// then for a pattern one line width long, and each feature's length divides them).
    let patternLength: Double
    /// Round-capped lines have round dash ends (rows across the line in the atlas).
    let round: Bool
    let zoom: Double
    /// Patterns are sized at the integer zoom, as MapLibre's cross-faded dasharray is.
    let integerZoom: Double

    /// `perFeature` false: a data-driven dasharray is taken as it evaluates without a feature
    /// (line-gradient's dashes are one pattern for the layer).
    init?(_ line: LineLayer, zoom: Double, atlas: DashAtlas, perFeature: Bool = true) {
        guard line.dasharray.isSet else { return nil }
        let ctx = EvaluationContext(zoom: zoom)
        round = line.cap.evaluate(ctx) == .round
        self.zoom = zoom
        integerZoom = zoom.rounded(.down)
        if line.dasharray.isFeatureConstant || !perFeature {
            let dashes = line.dasharray.evaluate(ctx)
            guard !dashes.isEmpty, let entry = atlas.entry(for: dashes, round: round) else { return nil }
            self.entry = entry
            patternLength = dashes.reduce(0, +)
        } else {
            entry = nil
            patternLength = 1
        }
    }

    /// The program variant: dashes of the layer or of each feature.
    var define: String { entry == nil ? "LINE_DASHED_PER_FEATURE" : "LINE_DASHED" }

    /// Binds the atlas to `unit` and sets the uniforms that stay the same for every tile.
    func bind(_ u: some LineDashUniforms, atlas: DashAtlas, context: GLContext, unit: Int, pixelRatio: Double) {
        atlas.bind(context, unit: unit)
        u.dashImage.set(unit: unit)
        if let entry {
            let centerRow = Double(entry.firstRow) + Double(entry.rowCount / 2) + 0.5
            u.dashRow.set(Float(centerRow / Double(atlas.height)))
        }
        // Round dash ends, and those of per-feature patterns, fade over twice the distance a layer's
        // butt ones do (as MapLibre draws them).
        let edgeDivisor = round || entry == nil ? 1.0 : 2.0
        u.sdfgamma.set(Float(Double(DashAtlas.width) / (patternLength * 256 * pixelRatio) / edgeDivisor))
    }

    /// Sets the pattern's scale along the line for a tile of zoom `tileZoom`.
    func bindTile(_ u: some LineDashUniforms, tileZoom: Int, atlas: DashAtlas) {
        let unitsPerPattern = patternLength * Double(TileExtent.extent) / (512 * exp2(integerZoom - Double(tileZoom)))
        // Across the line the normal (-1...1) spans the pattern's rows either side of its center.
        let rowScale = -Double((entry?.rowCount ?? 1) / 2) / Double(atlas.height)
        u.patternscale.set(Float(1 / unitsPerPattern), Float(rowScale))
    }

    /// Per vertex, the feature's own pattern (`a_dash`): its atlas row center and rows either
    /// side (texels) and its length in line widths. A feature whose dasharray is empty or invalid
    /// is drawn solid, as MapLibre draws it.
    func featurePatterns(_ line: LineLayer, geometry: LayerGeometry, atlas: DashAtlas) -> [Float] {
        var out = [Float](repeating: 0, count: geometry.vertexCount * 3)
        var ctx = EvaluationContext(zoom: zoom)
        for span in geometry.spans {
            ctx.feature = geometry.features[Int(span.feature)]
            var dashes = line.dasharray.evaluate(ctx)
            var entry = dashes.isEmpty ? nil : atlas.entry(for: dashes, round: round)
            if entry == nil {
                dashes = LineDashes.solid
                entry = atlas.entry(for: dashes, round: round)
            }
            guard let entry else { continue }
            let value: [Float] = [Float(Double(entry.firstRow) + Double(entry.rowCount / 2) + 0.5),
                                  Float(entry.rowCount / 2), Float(dashes.reduce(0, +))]
            let start = Int(span.vertexStart) * 3
            for i in stride(from: start, to: start + Int(span.vertexCount) * 3, by: 3) {
                out[i] = value[0]; out[i + 1] = value[1]; out[i + 2] = value[2]
            }
        }
        return out
    }

    /// A pattern of one dash and no gap.
    static let solid: [Double] = [1, 0]
}
