import GLSnapStyle

/// One section of a label's text, with its font stack and scale (from `format`).
public struct TextSection: Sendable {
    public var text: [UInt32]
    public var fonts: [String]
    public var scale: Double
    public var color: Color?
    public init(text: [UInt32], fonts: [String], scale: Double, color: Color?) {
        self.text = text; self.fonts = fonts; self.scale = scale; self.color = color
    }
}

/// A glyph placed in a shaped label: its pen position at the 24 px size (x from the left of the
/// line, y the baseline offset), relative to the label's anchor after alignment.
public struct PositionedGlyph: Sendable {
    public var x: Double
    public var y: Double
    public var scale: Double
    public var section: Int
    public var slot: GlyphSlot
}

/// A shaped label: glyphs and the box they fill, in 24 px units around the anchor.
public struct Shaping: Sendable {
    public var glyphs: [PositionedGlyph] = []
    public var top = 0.0, bottom = 0.0, left = 0.0, right = 0.0
    public var lineCount = 0
    public var isEmpty: Bool { glyphs.isEmpty }
}

/// Text shaping as MapLibre does it for horizontal text: balanced line breaking, justification,
/// anchoring. Sizes are in pixels at the 24 px glyph size ("ems" are 24 px).
public enum TextShaper {
    public static let oneEm = 24.0
    /// The baseline offset of the first line (MapLibre's SHAPING_DEFAULT_OFFSET).
    static let defaultOffset = -17.0

    static let whitespace: Set<UInt32> = [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]
    static let breakable: Set<UInt32> = [0x0a, 0x20, 0x26, 0x29, 0x2b, 0x2d, 0x2f, 0xad, 0xb7, 0x200b, 0x2010, 0x2013, 0x2027]

    /// Horizontal (x) and vertical (y) alignment of an anchor: 0 left/top, 0.5 center, 1 right/bottom.
    public static func alignment(_ anchor: String) -> (h: Double, v: Double) {
        var h = 0.5, v = 0.5
        switch anchor {
        case "right", "top-right", "bottom-right": h = 1
        case "left", "top-left", "bottom-left": h = 0
        default: break
        }
        switch anchor {
        case "bottom", "bottom-right", "bottom-left": v = 1
        case "top", "top-right", "top-left": v = 0
        default: break
        }
        return (h, v)
    }

    /// Shapes `sections`. `maxWidth`, `lineHeight` and `spacing` are in 24 px units (ems × 24);
    /// `breakLines` is false for line placement (only newlines break then). `offset` moves the box (text-offset × 24).
    public static func shape(_ sections: [TextSection], provider: SymbolResourceProvider, maxWidth: Double,
                             lineHeight: Double, justify: Double, anchor: String, spacing: Double,
                             offset: (Double, Double), breakLines: Bool) -> Shaping {
        // Flatten to (code point, section) with glyph slots, Arabic joined and brackets mirrored (Bidi.swift).
        let text = BidiText(sections)
        let spacing = text.allowsLetterSpacing ? spacing : 0
        var chars: [(cp: UInt32, section: Int, slot: GlyphSlot?)] = []
        chars.reserveCapacity(text.codepoints.count)
        for (cp, si) in zip(text.codepoints, text.sectionOf) {
            chars.append((cp, si, provider.glyph(fonts: sections[si].fonts, codepoint: cp)))
        }
        func advance(_ i: Int) -> Double {
            guard let slot = chars[i].slot else { return 0 }
            return slot.advance * sections[chars[i].section].scale + spacing
        }
        // Line breaks.
        var lines: [Range<Int>] = []
        if !chars.isEmpty {
            // Line placement and a zero text-max-width break only at newlines.
            let width = breakLines && maxWidth > 0 ? maxWidth : .infinity
            var breaks = text.addingParagraphBreaks(lineBreaks(chars.map(\.cp), advance: advance, maxWidth: width))
            if breaks.last != chars.count { breaks.append(chars.count) }
            var start = 0
            for b in breaks where b > start || b == chars.count {
                lines.append(start..<b); start = b
            }
        }
        var shaping = Shaping()
        shaping.top = offset.1; shaping.bottom = offset.1; shaping.left = offset.0; shaping.right = offset.0
        var y = defaultOffset
        var maxLineLength = 0.0, maxLineHeight = 0.0
        var lineStarts: [Int] = []
        for var line in lines {
            // Trim whitespace.
            while !line.isEmpty, whitespace.contains(chars[line.lowerBound].cp) { line = (line.lowerBound + 1)..<line.upperBound }
            while !line.isEmpty, whitespace.contains(chars[line.upperBound - 1].cp) { line = line.lowerBound..<(line.upperBound - 1) }
            var lineMaxScale = 0.0
            for i in line { lineMaxScale = max(lineMaxScale, sections[chars[i].section].scale) }
            // An empty line still feeds a line and counts for the vertical alignment (MapLibre's lineCount).
            if line.isEmpty { y += lineHeight; shaping.lineCount += 1; continue }
            var x = 0.0
            let first = shaping.glyphs.count
            lineStarts.append(first)
            for i in text.visualOrder(line) {
                guard let slot = chars[i].slot else { continue }
                let scale = sections[chars[i].section].scale
                let baselineOffset = (lineMaxScale - scale) * oneEm
                shaping.glyphs.append(PositionedGlyph(x: x, y: y + baselineOffset, scale: scale, section: chars[i].section, slot: slot))
                x += slot.advance * scale + spacing
            }
            if shaping.glyphs.count > first {
                maxLineLength = max(x - spacing, maxLineLength)
                // Justify the line within itself.
                let last = shaping.glyphs[shaping.glyphs.count - 1]
                let indent = (last.x + last.slot.advance * last.scale) * justify
                for j in first..<shaping.glyphs.count { shaping.glyphs[j].x -= indent }
            }
            let currentLineHeight = lineHeight * lineMaxScale
            y += currentLineHeight
            maxLineHeight = max(currentLineHeight, maxLineHeight)
            shaping.lineCount += 1
        }
        guard !shaping.glyphs.isEmpty else { return Shaping() }
        let height = y - defaultOffset
        let (hAlign, vAlign) = alignment(anchor)
        let shiftX = (justify - hAlign) * maxLineLength
        let shiftY = maxLineHeight != lineHeight
            ? -height * vAlign - defaultOffset
            : (-vAlign * Double(shaping.lineCount) + 0.5) * lineHeight
        for j in shaping.glyphs.indices { shaping.glyphs[j].x += shiftX; shaping.glyphs[j].y += shiftY }
        shaping.top += -vAlign * height
        shaping.bottom = shaping.top + height
        shaping.left += -hAlign * maxLineLength
        shaping.right = shaping.left + maxLineLength
        return shaping
    }

    /// MapLibre's balanced line breaking: break indices (exclusive ends of lines).
    static func lineBreaks(_ cps: [UInt32], advance: (Int) -> Double, maxWidth: Double) -> [Int] {
        var total = 0.0
        for i in cps.indices { total += advance(i) }
        let lineCount = max(1, (total / maxWidth).rounded(.up))
        let target = total / lineCount
        struct Break { var index: Int; var x: Double; var prior: Int?; var badness: Double }
        var potential: [Break] = []
        func badness(_ width: Double, _ penalty: Double, _ last: Bool) -> Double {
            let ragged = (width - target) * (width - target)
            if last { return width < target ? ragged / 2 : ragged * 2 }
            return ragged + abs(penalty) * penalty
        }
        func evaluate(_ index: Int, _ x: Double, _ penalty: Double, _ last: Bool) -> Break {
            var best: Int?
            var bestBadness = badness(x, penalty, last)
            for (k, p) in potential.enumerated() {
                let b = badness(x - p.x, penalty, last) + p.badness
                if b <= bestBadness { best = k; bestBadness = b }
            }
            return Break(index: index, x: x, prior: best, badness: bestBadness)
        }
        var x = 0.0
        for i in cps.indices {
            let cp = cps[i]
            if !whitespace.contains(cp) { x += advance(i) }
            guard i < cps.count - 1 else { continue }
            let ideographic = allowsIdeographicBreaking(cp)
            let next = cps[i + 1]
            if breakable.contains(cp) || ideographic || (i != cps.count - 2 && next == 0x28) {
                var penalty = 0.0
                if cp == 0x0a { penalty -= 10000 }
                if cp == 0x28 || cp == 0xff08 { penalty += 50 }
                if next == 0x29 || next == 0xff09 { penalty += 50 }
                potential.append(evaluate(i + 1, x, penalty, false))
            }
        }
        var result: [Int] = []
        var b: Break? = evaluate(cps.count, x, 0, true)
        while let cur = b {
            result.append(cur.index)
            b = cur.prior.map { potential[$0] }
        }
        return result.reversed()
    }

    /// CJK and similar scripts break between any two characters.
    static func allowsIdeographicBreaking(_ cp: UInt32) -> Bool {
        switch cp {
        case 0x2E80...0x2FDF, 0x2FF0...0x303F, 0x3040...0x31FF, 0x3200...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFFEF: return true
        default: return false
        }
    }
}
