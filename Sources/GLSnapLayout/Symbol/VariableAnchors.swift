import GLSnapStyle

/// One anchor a label with variable anchors may take, and how far its text moves from the
/// symbol's anchor there (24 px units, text-offset or text-radial-offset already resolved and
/// the baseline shift applied).
struct VariableAnchor: Sendable, Equatable {
    var anchor: SymbolLayer.Anchor
    var offset: Vec2
}

/// text-variable-anchor and text-variable-anchor-offset as MapLibre GL JS places them: the text is
/// shaped once around its center; placement tries the anchors in the order the style gives them,
/// first without overlap and then (when overlap is allowed) again with it, and moves the text (and
/// an icon fitted to it) by the anchor's shift.
enum VariableAnchors {
    /// Glyphs appear to start at the baseline vertically, not at the box's edge: MapLibre assumes
    /// ONE_EM - 17 (`TextShaper.defaultOffset`) for it.
    static let baselineOffset = 7.0
    /// The anchors of a label (nil when the layer has neither property). text-variable-anchor-offset
    /// wins over text-variable-anchor; with the latter, text-radial-offset wins over text-offset.
    static func anchors(_ layer: SymbolLayer, _ ctx: EvaluationContext) -> [VariableAnchor]? {
        if layer.textVariableAnchorOffset.isSet, case .array(let values) = layer.textVariableAnchorOffset.evaluate(ctx) {
            var out: [VariableAnchor] = []
            var i = 0
            while i + 1 < values.count {
                defer { i += 2 }
                guard let anchor = values[i].string.flatMap(SymbolLayer.Anchor.init(rawValue:)),
                      let o = values[i + 1].array?.compactMap(\.number), o.count == 2 else { continue }
                var y = o[1] * TextShaper.oneEm
                switch anchor {
                case .top, .topLeft, .topRight: y -= baselineOffset
                case .bottom, .bottomLeft, .bottomRight: y += baselineOffset
                case .center, .left, .right: break
                }
                out.append(VariableAnchor(anchor: anchor, offset: Vec2(o[0] * TextShaper.oneEm, y)))
            }
            return out.isEmpty ? nil : out
        }
        guard layer.textVariableAnchor.isSet, case .array(let a) = layer.textVariableAnchor.evaluate(ctx) else { return nil }
        let names = a.compactMap { $0.string.flatMap(SymbolLayer.Anchor.init(rawValue:)) }
        guard !names.isEmpty else { return nil }
        if layer.textRadialOffset.isSet {
            let r = layer.textRadialOffset.evaluate(ctx) * TextShaper.oneEm
            return names.map { VariableAnchor(anchor: $0, offset: radial($0, radius: r)) }
        }
        let o = layer.textOffset.evaluate(ctx)
        let offset = o.count == 2 ? Vec2(o[0] * TextShaper.oneEm, o[1] * TextShaper.oneEm) : Vec2(0, 0)
        return names.map { VariableAnchor(anchor: $0, offset: fromTextOffset($0, offset)) }
    }

    /// A radial offset `radius` at `anchor`: diagonal anchors move radius/√2 on each axis;
    /// vertical moves are shortened by the baseline offset. Negative radii count as 0.
    static func radial(_ anchor: SymbolLayer.Anchor, radius: Double) -> Vec2 {
        let r = max(0, radius), hyp = r / 2.0.squareRoot()
        var x = 0.0, y = 0.0
        switch anchor {
        case .topRight, .topLeft: y = hyp - baselineOffset
        case .bottomRight, .bottomLeft: y = -hyp + baselineOffset
        case .bottom: y = -r + baselineOffset
        case .top: y = r - baselineOffset
        case .center, .left, .right: break
        }
        switch anchor {
        case .topRight, .bottomRight: x = -hyp
        case .topLeft, .bottomLeft: x = hyp
        case .left: x = r
        case .right: x = -r
        case .center, .top, .bottom: break
        }
        return Vec2(x, y)
    }

    /// text-offset at `anchor`: its absolute values, pointing away from the anchor's sides.
    static func fromTextOffset(_ anchor: SymbolLayer.Anchor, _ offset: Vec2) -> Vec2 {
        let ox = abs(offset.x), oy = abs(offset.y)
        var x = 0.0, y = 0.0
        switch anchor {
        case .topRight, .topLeft, .top: y = oy - baselineOffset
        case .bottomRight, .bottomLeft, .bottom: y = -oy + baselineOffset
        case .center, .left, .right: break
        }
        switch anchor {
        case .topRight, .bottomRight, .right: x = -ox
        case .topLeft, .bottomLeft, .left: x = ox
        case .center, .top, .bottom: break
        }
        return Vec2(x, y)
    }

    /// How far a box `width` × `height` (any unit) shaped around its center moves to sit at
    /// `anchor`, with the anchor's offset (24 px units) scaled by `boxScale` into that unit.
    static func shift(_ a: VariableAnchor, width: Double, height: Double, boxScale: Double) -> Vec2 {
        let (h, v) = TextShaper.alignment(a.anchor)
        return Vec2(-(h - 0.5) * width + a.offset.x * boxScale, -(v - 0.5) * height + a.offset.y * boxScale)
    }

    /// The order in which the anchors are tried: each without overlap, then, when the text may
    /// overlap (`text-overlap` other than never), each again allowing it. Pairs of
    /// (index into `anchors`, overlap allowed).
    static func attempts(count: Int, overlapAllowed: Bool) -> [(index: Int, overlap: Bool)] {
        var out = (0..<count).map { ($0, false) }
        if overlapAllowed { out += (0..<count).map { ($0, true) } }
        return out
    }
}
