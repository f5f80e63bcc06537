import GLSnapStyle

extension SymbolInstance {
    /// The instance with its vertical layout in place of the horizontal one (point labels).
    var turnedVertical: SymbolInstance {
        var v = self
        v.glyphs = verticalGlyphs
        v.textBox = verticalTextBox
        if let icon = verticalIcon { v.icon = icon }
        v.justifiedGlyphs = []
        return v
    }

    /// The text's quads as justified for a variable anchor (text-justify auto), else `glyphs`.
    func glyphs(justifiedFor anchor: SymbolLayer.Anchor) -> Range<Int> {
        guard justifiedGlyphs.count == 3 else { return glyphs }
        let h = TextShaper.alignment(anchor).h
        let range = justifiedGlyphs[h == 0 ? 0 : (h == 1 ? 2 : 1)]
        return range.isEmpty ? glyphs : range
    }
}

extension SymbolPlacement {
    /// Places one symbol (see `placeOriented`). A point label with a vertical layout tries the
    /// orientations of text-writing-mode in order and keeps the first whose text is placed, as
    /// MapLibre does; when none is, the last one tried stands.
    static func placeSymbol(_ inst: SymbolInstance, _ symbols: SymbolTile, params pr: LayerParams, projector: inout TileProjector,
                            grid: inout CollisionGrid, transform t: Transform, draw: inout SymbolDrawData) -> Placed? {
        var textPlaced = false
        guard inst.line < 0, !inst.verticalGlyphs.isEmpty, symbols.writingModes.contains(.vertical) else {
            return placeOriented(inst, symbols, params: pr, projector: &projector, grid: &grid, transform: t, draw: &draw,
                                 textPlaced: &textPlaced)
        }
        let modes = symbols.writingModes
        // Earlier orientations are tried on copies of the grid (a copy costs the grid's cells;
        // only labels with a vertical layout pay it).
        for (k, mode) in modes.enumerated() {
            let candidate = mode == .vertical ? inst.turnedVertical : inst
            // The last orientation's outcome stands, placed or not (its text may still be shown
            // with text-allow-overlap, its icon placed alone with text-optional).
            if k == modes.count - 1 {
                return placeOriented(candidate, symbols, params: pr, projector: &projector, grid: &grid, transform: t, draw: &draw,
                                     textPlaced: &textPlaced)
            }
            var g = grid, d = draw, p = projector
            let placed = placeOriented(candidate, symbols, params: pr, projector: &p, grid: &g, transform: t, draw: &d,
                                       textPlaced: &textPlaced)
            if textPlaced {
                grid = g; draw = d; projector = p
                return placed
            }
        }
        return nil
    }
}

extension SymbolPlacement {
    /// An image in text: a raster quad drawn with the icons, at the text's opacity.
    static func emitTextImage(_ out: inout [Float], _ corners: [Vec2], _ q: GlyphQuad, _ opacity: Float, _ fontScale: Double) {
        emitQuad(&out, corners, q.tex, Color.white, Color.transparent, opacity, [0, 0, Float(fontScale)])
    }
}
