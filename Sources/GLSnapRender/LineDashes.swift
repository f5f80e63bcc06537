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

/// A line layer's line-dasharray for one frame: where its pattern lies in the dash atlas and how
/// long it is. Nil when the layer has no dashes (or an empty pattern).
struct LineDashes {
    let entry: DashAtlas.Entry
    /// Dash and gap lengths summed, in line widths.
    let patternLength: Double
    /// Patterns are sized at the integer zoom, as MapLibre's cross-faded dasharray is.
    let integerZoom: Double

    init?(_ line: LineLayer, zoom: Double, atlas: DashAtlas) {
        let ctx = EvaluationContext(zoom: zoom)
        let dashes = line.dasharray.isSet ? line.dasharray.evaluate(ctx) : []
        guard !dashes.isEmpty, let entry = atlas.entry(for: dashes, round: line.cap.evaluate(ctx) == .round) else { return nil }
        self.entry = entry
        patternLength = dashes.reduce(0, +)
        integerZoom = zoom.rounded(.down)
    }

    /// Binds the atlas to `unit` and sets the uniforms that stay the same for every tile.
    func bind(_ u: some LineDashUniforms, atlas: DashAtlas, context: GLContext, unit: Int, pixelRatio: Double) {
        atlas.bind(context, unit: unit)
        u.dashImage.set(unit: unit)
        let atlasHeight = Double(atlas.height)
        let centerRow = Double(entry.firstRow) + Double(entry.rowCount / 2) + 0.5
        u.dashRow.set(Float(centerRow / atlasHeight))
        u.sdfgamma.set(Float(Double(DashAtlas.width) / (patternLength * 256 * pixelRatio) / (entry.rowCount > 1 ? 1 : 2)))
    }

    /// Sets the SDF edge width as MapLibre's line-gradient dashes have it: twice the plain lines',
    /// and without the pixel ratio (line_gradient_sdf.fragment.glsl).
    func bindGradientEdge(_ u: some LineDashUniforms) {
        u.sdfgamma.set(Float(Double(DashAtlas.width) / (patternLength * 256)))
    }

    /// Sets the pattern's scale along the line for a tile of zoom `tileZoom`.
    func bindTile(_ u: some LineDashUniforms, tileZoom: Int, atlas: DashAtlas) {
        let unitsPerPattern = patternLength * Double(TileExtent.extent) / (512 * exp2(integerZoom - Double(tileZoom)))
        // Across the line the normal (-1...1) spans the pattern's rows either side of its center.
        let rowScale = -Double(entry.rowCount / 2) / Double(atlas.height)
        u.patternscale.set(Float(1 / unitsPerPattern), Float(rowScale))
    }
}
