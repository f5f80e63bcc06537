import Foundation
import GLSnapStyle

/// What one symbol layer draws in one view: two triangles per glyph or icon, in screen pixels,
/// `SymbolDrawData.floatsPerVertex` floats a vertex: x, y (CSS px), u, v (atlas texels),
/// fill color (4, premultiplied), halo color (4), opacity, halo width, halo blur, scale.
public struct SymbolDrawData {
    public static let floatsPerVertex = 16
    public var icons: [Float] = []
    public var sdfIcons: [Float] = []
    public var text: [Float] = []
    /// Where each run of `text` (and of `sdfIcons`) ends, in floats: a run's halos are drawn,
    /// then its fills, before the next run, as GL JS draws a layer tile by tile (and sort-key
    /// segment by segment). The last run ends at the array's end; empty: one run.
    public var textRuns: [Int] = [], sdfIconRuns: [Int] = []
    /// Images in text (`format`), raster quads in the icon atlas drawn after the text.
    public var textImages: [Float] = []
    /// Images in text need linear filtering (laid on the map, or sized by zoom), as MapLibre's.
    public var textImagesLinear = false
    /// Icons need linear filtering (scaled or rotated).
    public var iconsLinear = false
    /// Text (SDF icons) laid flat on a pitched map: its edges soften with distance as GL JS's
    /// (`PitchedGamma`); nil faces the viewer.
    public var textGamma: PitchedGamma?
    public var sdfIconGamma: PitchedGamma?
    public let glyphAtlas: SymbolAtlas
    public let iconAtlas: SymbolAtlas
    /// The symbols placed (not only shown), with their collision boxes: what rendered-feature
    /// queries answer for this layer.
    public var placed: [PlacedSymbol] = []
    /// The collision shapes placement tested, placed or not; nil unless collision debug is on.
    public var collisionDebug: [CollisionDebugShape]?
    public var isEmpty: Bool { icons.isEmpty && sdfIcons.isEmpty && text.isEmpty && textImages.isEmpty }
}

/// A symbol layer's tiles for one view.
public struct SymbolLayerInput {
    public var layer: StyleLayer
    public var tiles: [(tile: CoveredTile, symbols: SymbolTile)]
    /// The 3D terrain the labels stand on (nil: the flat map): anchors and line points are
    /// projected at the ground's height under them, as GL JS's placement reads it.
    public var terrain: TerrainSurface?
    public init(layer: StyleLayer, tiles: [(tile: CoveredTile, symbols: SymbolTile)]) { self.layer = layer; self.tiles = tiles }
}

/// Places every symbol of a view at once: projects anchors, tests collisions in screen space over
/// all tiles and layers, and writes the vertices of what is shown. The order is MapLibre
/// Native's: layers top to bottom; within a layer tiles top to bottom, left to right (in the
/// rotated view), and in each tile the symbols in layout order (by sort key when the layer has
/// one, across tiles; from the bottom of the view up for `symbol-z-order: viewport-y`).
/// Deterministic: the same inputs give the same output; there is no fading.
public enum SymbolPlacement {
    /// With `crossSourceCollisions` false, labels collide only with labels of their own source.
    /// `seams`: view edges shared with a neighbouring image placed apart (see `PlacementSeams`).
    /// With `collisionDebug`, each layer's `SymbolDrawData.collisionDebug` lists the shapes tested.
    /// With `globe`, anchors are projected through the globe (the screen of `globe.flat`'s camera)
    /// and those behind its horizon are neither placed nor drawn, as GL JS's globe does.
    public static func place(_ layers: [SymbolLayerInput], transform: Transform, provider: SymbolResourceProvider,
                             crossSourceCollisions: Bool = true, seams: PlacementSeams = .none,
                             collisionDebug: Bool = false, globe: GlobeView? = nil) -> [SymbolDrawData] {
        var empty = CollisionGrid(width: transform.width, height: transform.height)
        empty.seams = seams
        // One grid for all, or one per source.
        var grids: [String: CollisionGrid] = [:]
        var out = [SymbolDrawData](repeating: SymbolDrawData(glyphAtlas: provider.glyphAtlas, iconAtlas: provider.iconAtlas), count: layers.count)
        // Grids as they were before each placed layer, for layers that share its placement.
        var before: [(layer: Int, grid: CollisionGrid)] = []
        for li in layers.indices.reversed() {
            let group = crossSourceCollisions ? "" : (layers[li].layer.source ?? "")
            let layer = layers[li].layer
            // A layer grouped with one placed above it (same source, filter and layout: one bucket
            // in MapLibre) shows the same labels: placed again from the same grid, without marking it.
            if let leader = before.first(where: { layers[$0.layer].layer.layoutGroup == layer.layoutGroup }) {
                var scratch = leader.grid
                out[li] = placeLayer(layers[li], transform: transform, grid: &scratch, provider: provider, debug: collisionDebug, globe: globe)
                continue
            }
            var grid = grids.removeValue(forKey: group) ?? empty
            before.append((li, grid))
            out[li] = placeLayer(layers[li], transform: transform, grid: &grid, provider: provider, debug: collisionDebug, globe: globe)
            grids[group] = grid
        }
        return out
    }

    struct Placed {
        var key: Double
        var order: Int
        var text: [Float]
        var icon: [Float]
        var sdfIcon: Bool
        /// Images in the text (non-SDF, drawn with the icons).
        var textImages: [Float] = []
        /// The tile (in placement order) and the feature: GL JS draws a layer tile by tile.
        var tile = 0, feature = 0
        /// The collision shapes of the text and icon that were placed (empty: only shown).
        var boxes: [CollisionShape] = []
    }

    /// Tiles in MapLibre GL JS's placement order (its style sorts a source's tiles this way before
    /// placing them): deeper (overscaled) zoom first, then by world copy, then column by column,
    /// west to east, each column north to south, whatever the bearing. MapLibre Native goes row by
    /// row in the rotated view instead; under pitch, where labels of the near tiles reach into the
    /// far ones, the two orders keep different labels.
    static func sortedTiles(_ tiles: [(tile: CoveredTile, symbols: SymbolTile)]) -> [(tile: CoveredTile, symbols: SymbolTile)] {
        tiles.enumerated().sorted { a, b in
            let ta = a.element.tile, tb = b.element.tile
            if ta.overscaledZoom != tb.overscaledZoom { return ta.overscaledZoom > tb.overscaledZoom }
            let ka = (ta.wrap, ta.id.z, ta.id.x, ta.id.y), kb = (tb.wrap, tb.id.z, tb.id.x, tb.id.y)
            return ka != kb ? ka < kb : a.offset < b.offset
        }.map(\.element)
    }

    /// (tile, instance) in placement order: tile by tile in layout order, or from the bottom of
    /// the view up (symbol-z-order viewport-y), then by sort key across tiles when the layer has one.
    static func placementOrder(_ tiles: [(tile: CoveredTile, symbols: SymbolTile)], _ params: LayerParams,
                               projectors: [TileProjector]) -> [(tile: Int, inst: Int)] {
        var sequence: [(tile: Int, inst: Int)] = []
        for (ti, entry) in tiles.enumerated() {
            let count = entry.symbols.instances.count
            if params.placesBottomUp {
                // Placed from the bottom of the view up (the reverse of the drawing order).
                var ys: [(Double, Int)] = []
                ys.reserveCapacity(count)
                for i in 0..<count { ys.append((projectors[ti].project(entry.symbols.instances[i].anchor)?.y ?? 0, i)) }
                ys.sort { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 > $1.1 }
                for (_, i) in ys { sequence.append((ti, i)) }
            } else {
                for i in 0..<count { sequence.append((ti, i)) }
            }
        }
        guard params.sortByKey else { return sequence }
        let keyed = sequence.enumerated().map { (key: tiles[$0.element.tile].symbols.instances[$0.element.inst].sortKey, n: $0.offset, item: $0.element) }
        return keyed.sorted { $0.key != $1.key ? $0.key < $1.key : $0.n < $1.n }.map(\.item)
    }

    static func placeLayer(_ input: SymbolLayerInput, transform t: Transform, grid: inout CollisionGrid,
                           provider: SymbolResourceProvider, debug: Bool = false, globe: GlobeView? = nil) -> SymbolDrawData {
        var draw = SymbolDrawData(glyphAtlas: provider.glyphAtlas, iconAtlas: provider.iconAtlas)
        guard let symbol = input.layer.symbol else { return draw }
        var params = LayerParams(symbol, transform: t, globe: globe != nil)
        params.collisionDebug = debug
        if debug { draw.collisionDebug = [] }
        let tiles = sortedTiles(globe == nil ? input.tiles : GlobeTileProjection.oneCopyPerTile(input.tiles))
        var projectors = tiles.map { TileProjector(transform: t, tile: $0.tile, symbols: $0.symbols, terrain: input.terrain, globe: globe) }
        let sequence = placementOrder(tiles, params, projectors: projectors)
        var placed: [Placed] = []
        draw.textImagesLinear = params.textPitchMap || !params.textSize.isZoomConstant
        if let first = projectors.first, params.textFlat || params.iconFlat {
            let p = first.projection
            let gamma = PitchedGamma.make(m: p.m, width: p.width, height: p.height, pitch: t.pitch,
                                          cameraToCenterDistance: t.cameraToCenterDistance)
            draw.textGamma = params.textFlat ? gamma : nil
            draw.sdfIconGamma = params.iconFlat ? gamma : nil
        }
        for (n, item) in sequence.enumerated() {
            let symbols = tiles[item.tile].symbols
            guard var p = placeSymbol(symbols.instances[item.inst], symbols, params: params, projector: &projectors[item.tile],
                                      grid: &grid, transform: t, draw: &draw) else { continue }
            p.order = n
            p.tile = item.tile
            p.feature = symbols.instances[item.inst].feature
            if !p.boxes.isEmpty {
                draw.placed.append(PlacedSymbol(tile: tiles[item.tile].tile, feature: symbols.features[symbols.instances[item.inst].feature],
                                                featureIndex: symbols.instances[item.inst].feature,
                                                boxes: p.boxes.map { QueryBox(x1: $0.x1, y1: $0.y1, x2: $0.x2, y2: $0.y2) },
                                                viewportY: params.sortByY ? sortY(symbols.instances[item.inst].anchor, params) : nil))
            }
            placed.append(p)
        }
        sortForDrawing(&placed, params)
        for (n, p) in placed.enumerated() {
            // A new run where the tile changes, or the sort key's segment.
            if n > 0, placed[n - 1].tile != p.tile || (params.sortByKey && placed[n - 1].key != p.key) {
                if draw.textRuns.last != draw.text.count { draw.textRuns.append(draw.text.count) }
                if draw.sdfIconRuns.last != draw.sdfIcons.count { draw.sdfIconRuns.append(draw.sdfIcons.count) }
            }
            draw.text += p.text
            if p.sdfIcon { draw.sdfIcons += p.icon } else { draw.icons += p.icon }
            draw.textImages += p.textImages
        }
        if draw.textRuns.last == draw.text.count { draw.textRuns.removeLast() }
        if draw.sdfIconRuns.last == draw.sdfIcons.count { draw.sdfIconRuns.removeLast() }
        return draw
    }

    /// The drawing order, as GL JS's: by sort key across tiles (tiles in placement order within
    /// a key); for symbol-z-order viewport-y, tile by tile, each tile's symbols by their row in
    /// the view turned upright, later features first on a row (its sortFeatures); else as placed.
    static func sortForDrawing(_ placed: inout [Placed], _ params: LayerParams) {
        if params.sortByKey {
            placed.sort { ($0.key, $0.order) < ($1.key, $1.order) }
        } else if params.sortByY {
            placed.sort { a, b in
                if a.tile != b.tile { return a.tile < b.tile }
                if a.key != b.key { return a.key < b.key }
                return a.feature != b.feature ? a.feature > b.feature : a.order < b.order
            }
        }
    }

    /// The anchor's row in the view turned upright, whole tile units (MapLibre's sortFeatures key).
    static func sortY(_ anchor: Vec2, _ params: LayerParams) -> Double {
        (params.sinA * anchor.x + params.cosA * anchor.y).jsRounded
    }

    /// text-overlap (icon-overlap), which wins over text-allow-overlap (true: always).
    static func overlapMode(_ overlap: LayerProperty<SymbolLayer.Overlap?>, allowOverlap: LayerProperty<Bool>,
                            _ ctx: EvaluationContext) -> OverlapMode {
        if overlap.isSet {
            switch overlap.evaluate(ctx) {
            case .always?: return .always
            case .cooperative?: return .cooperative
            case .never?, nil: return .never
            }
        }
        return allowOverlap.evaluate(ctx) ? .always : .never
    }

    /// text-translate (icon-translate) on the screen: with translate-anchor map, turned by the bearing.
    static func translate(_ translate: LayerProperty<[Double]>, anchor: LayerProperty<TranslateAnchor>, _ ctx: EvaluationContext,
                          _ t: Transform) -> (Double, Double) {
        let v = translate.evaluate(ctx)
        guard v.count == 2 else { return (0, 0) }
        if anchor.evaluate(ctx) == .map {
            let a = -t.bearing * .pi / 180
            return (v[0] * cos(a) - v[1] * sin(a), v[0] * sin(a) + v[1] * cos(a))
        }
        return (v[0], v[1])
    }

    /// Two triangles (tl, tr, bl / bl, tr, br).
    static func emitQuad(_ out: inout [Float], _ c: [Vec2], _ tex: AtlasRect, _ fill: Color, _ halo: Color,
                         _ opacity: Float, _ paint: [Float]) {
        emitQuad(&out, c[0], c[1], c[2], c[3], tex, fill, halo, opacity, paint)
    }

    /// Two triangles (tl, tr, bl / bl, tr, br) from the corners tl, tr, bl, br: no array per glyph.
    static func emitQuad(_ out: inout [Float], _ tl: Vec2, _ tr: Vec2, _ bl: Vec2, _ br: Vec2, _ tex: AtlasRect,
                         _ fill: Color, _ halo: Color, _ opacity: Float, _ paint: [Float]) {
        emitQuad(&out, tl, tr, bl, br, uv: (Float(tex.x), Float(tex.y), Float(tex.x + tex.w), Float(tex.y + tex.h)),
                 fill, halo, opacity, paint)
    }

    /// The same with texels (u0, v0, u1, v1) that need not be whole (the pieces of a stretched icon).
    static func emitQuad(_ out: inout [Float], _ tl: Vec2, _ tr: Vec2, _ bl: Vec2, _ br: Vec2, uv: (Float, Float, Float, Float),
                         _ fill: Color, _ halo: Color, _ opacity: Float, _ paint: [Float]) {
        let (u0, v0, u1, v1) = uv
        let fr = Float(fill.r), fg = Float(fill.g), fb = Float(fill.b), fa = Float(fill.a)
        let hr = Float(halo.r), hg = Float(halo.g), hb = Float(halo.b), ha = Float(halo.a)
        let p0 = paint[0], p1 = paint[1], p2 = paint[2]
        // One growth check for the quad's 96 floats, then plain stores.
        let base = out.count
        out.append(contentsOf: repeatElement(0, count: 6 * 16))
        out.withUnsafeMutableBufferPointer { b in
            var i = base
            @inline(__always) func vertex(_ c: Vec2, _ u: Float, _ v: Float) {
                b[i] = Float(c.x); b[i + 1] = Float(c.y); b[i + 2] = u; b[i + 3] = v
                b[i + 4] = fr; b[i + 5] = fg; b[i + 6] = fb; b[i + 7] = fa
                b[i + 8] = hr; b[i + 9] = hg; b[i + 10] = hb; b[i + 11] = ha
                b[i + 12] = opacity; b[i + 13] = p0; b[i + 14] = p1; b[i + 15] = p2
                i += 16
            }
            vertex(tl, u0, v0); vertex(tr, u1, v0); vertex(bl, u0, v1)
            vertex(bl, u0, v1); vertex(tr, u1, v0); vertex(br, u1, v1)
        }
    }
}

/// Projects a tile's points to screen pixels, caching its projected lines.
struct TileProjector {
    /// Tile units per CSS pixel of the view at its zoom (also on the globe: GL JS's
    /// pixelsToTileUnits, which text-translate and icon-translate go through).
    let tileUnitsPerPixel: Double
    /// The projection alone: what closures capture, so that they do not share (and make
    /// `line(_:)` copy on write) the cache of projected lines.
    let projection: TileProjection
    var lines: [Int: [(x: Double, y: Double)]?] = [:]
    let symbols: SymbolTile

    init(transform t: Transform, tile: CoveredTile, symbols: SymbolTile, terrain: TerrainSurface? = nil, globe: GlobeView? = nil) {
        var projection = TileProjection(m: t.tileMatrix(for: tile.id, wrap: tile.wrap), width: t.width, height: t.height,
                                        ground: terrain.map { TerrainPoints(surface: $0, tile: tile) })
        tileUnitsPerPixel = Double(TileExtent.extent) * exp2(Double(tile.id.z)) / t.worldSize
        projection.globe = globe.map { GlobeTileProjection(globe: $0, tile: tile) }
        self.projection = projection
        self.symbols = symbols
    }

    /// Tile units per CSS pixel of glyphs and line label distances at a tile point: on the globe
    /// scaled so that labels keep their size at every latitude (GL JS's pitched text correction).
    func glyphUnitsPerPixel(at p: Vec2) -> Double {
        guard let globe = projection.globe else { return tileUnitsPerPixel }
        return tileUnitsPerPixel * globe.latitudeCorrection(at: p)
    }

    /// Whether the globe hides a tile point (never on the flat map).
    func isOccluded(_ p: Vec2) -> Bool { projection.globe?.isOccluded(p) ?? false }

    /// Screen position and clip w of a tile point; nil behind the camera.
    @inline(__always)
    func project(_ p: Vec2) -> (x: Double, y: Double, w: Double)? { projection.project(p) }

    /// The tile's line `index` in screen pixels, points behind the camera replaced as
    /// `behindCamera` replaces them; nil when none of it is in front.
    mutating func line(_ index: Int) -> [(x: Double, y: Double)]? {
        if let cached = lines[index] { return cached }
        guard let source = symbols.lines[safe: index] else { return nil }
        var pts: [(x: Double, y: Double)] = []
        pts.reserveCapacity(source.count)
        for p in source {
            guard let q = project(p) else {
                let replaced = Self.behindCamera(source, projection)
                lines[index] = .some(replaced)
                return replaced
            }
            pts.append((q.x, q.y))
        }
        lines[index] = .some(pts)
        return pts
    }
}

/// A tile's matrix and the view's size: tile points to screen pixels.
struct TileProjection {
    let m: [Float]
    let width: Double, height: Double
    /// Over terrain, the ground's height under each point (meters, the matrix's z).
    var ground: TerrainPoints? = nil

    /// On the globe, points go through the sphere instead of `m`.
    var globe: GlobeTileProjection?

    /// Screen position and clip w of a tile point; nil behind the camera.
    func project(_ p: Vec2) -> (x: Double, y: Double, w: Double)? {
        if let globe { return globe.project(p) }
        let z = ground?.elevation(p) ?? 0
        let x = Double(m[0]) * p.x + Double(m[4]) * p.y + Double(m[8]) * z + Double(m[12])
        let y = Double(m[1]) * p.x + Double(m[5]) * p.y + Double(m[9]) * z + Double(m[13])
        let w = Double(m[3]) * p.x + Double(m[7]) * p.y + Double(m[11]) * z + Double(m[15])
        guard w > 1e-6 else { return nil }
        return ((x / w + 1) / 2 * width, (1 - y / w) / 2 * height, w)
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
