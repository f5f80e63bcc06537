import GLSnapStyle

/// One section of a label's text, with its font stack and scale (from `format`).
public struct TextSection: Sendable {
    public var text: [UInt32]
    public var fonts: [String]
    public var scale: Double
    public var color: Color?
    /// An image section (`["image", …]` in `format`): drawn from the icon atlas in place of `text`'s one character.
    public var image: IconSlot?
    /// `vertical-align` as a factor of the spare line height above the section: 0 top, 0.5 center, 1 bottom (default).
    public var verticalAlign: Double
    public init(text: [UInt32], fonts: [String], scale: Double, color: Color?, image: IconSlot? = nil, verticalAlign: Double = 1) {
        self.text = text; self.fonts = fonts; self.scale = scale; self.color = color
        self.image = image; self.verticalAlign = verticalAlign
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
    /// Set upright in a vertical line (its quad is turned a quarter back).
    public var vertical = false
    /// Images in text: the image's texels per 24 px unit at scale 1 (the slot's rect is then its
    /// padded rect in the icon atlas); 0 for glyphs.
    public var imageTexelsPerUnit = 0.0
    public var isImage: Bool { imageTexelsPerUnit > 0 }
    /// The line's extra height from large images and scales (MapLibre's lineOffset), for vertical labels.
    public var lineOffset = 0.0
}

/// A shaped label: glyphs and the box they fill, in 24 px units around the anchor.
public struct Shaping: Sendable {
    public var glyphs: [PositionedGlyph] = []
    public var top = 0.0, bottom = 0.0, left = 0.0, right = 0.0
    /// The label's box (24 px units around the anchor).
    var box: Rect { Rect(minX: left, minY: top, maxX: right, maxY: bottom) }
    public var lineCount = 0
    public var writingMode = WritingMode.horizontal
    /// Some glyph is set upright in a vertical line.
    public var verticalizable = false
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
    public static func alignment(_ anchor: SymbolLayer.Anchor) -> (h: Double, v: Double) {
        switch anchor {
        case .center: return (0.5, 0.5)
        case .left: return (0, 0.5)
        case .right: return (1, 0.5)
        case .top: return (0.5, 0)
        case .bottom: return (0.5, 1)
        case .topLeft: return (0, 0)
        case .topRight: return (1, 0)
        case .bottomLeft: return (0, 1)
        case .bottomRight: return (1, 1)
        }
    }

    /// Shapes `sections`. `maxWidth`, `lineHeight` and `spacing` are in 24 px units (ems × 24);
    /// `breakLines` is false for line placement (only newlines break then). `offset` moves the box (text-offset × 24).
    /// `writingMode` `.vertical` lays the text out for a vertical label (punctuation in vertical
    /// forms, upright glyphs advancing one em); `allowVerticalPlacement` (vertical point labels)
    /// sets every glyph but spaces and Arabic upright, else only those upright by Unicode.
    /// Images in text are measured at `layoutTextSize` for line breaking and drawn at their own
    /// size at `textSizeThisZoom` (text-size at the tile's zoom + 1 and at its zoom).
    public static func shape(_ sections: [TextSection], provider: SymbolResourceProvider, maxWidth: Double,
                             lineHeight: Double, justify: Double, anchor: SymbolLayer.Anchor, spacing: Double,
                             offset: (Double, Double), breakLines: Bool, writingMode: WritingMode = .horizontal,
                             allowVerticalPlacement: Bool = false, layoutTextSize: Double = oneEm,
                             textSizeThisZoom: Double = oneEm) -> Shaping {
        // Flatten to (code point, section) with glyph slots, Arabic joined and brackets mirrored
        // (Bidi.swift); an image is one character. Sections are copied only when an image or
        // vertical punctuation changes their text.
        let changesText = writingMode == .vertical || sections.contains { $0.image != nil }
        let text = BidiText(!changesText ? sections : sections.map { s in
            var s = s
            s.text = s.image != nil ? [s.text.first ?? 0xFFFC]
                : writingMode == .vertical ? VerticalText.verticalizePunctuation(s.text) : s.text
            return s
        })
        let c = ShapingChars(text, sections, provider: provider, spacing: text.allowsLetterSpacing ? spacing : 0,
                             layoutTextSize: layoutTextSize)
        // A text-max-width of 0 breaks at every opportunity, as GL JS 6 breaks it (its target line
        // width is then 0); older MapLibre read 0 as no limit.
        let lines = lineRanges(c, text, maxWidth: breakLines ? max(0, maxWidth) : .infinity)
        var shaping = Shaping()
        shaping.writingMode = writingMode
        shaping.top = offset.1; shaping.bottom = offset.1; shaping.left = offset.0; shaping.right = offset.0
        let imageFactor = oneEm / textSizeThisZoom
        var y = 0.0
        var maxLineLength = 0.0, maxLineHeight = 0.0
        for var line in lines {
            // Trim whitespace.
            while !line.isEmpty, whitespace.contains(c.chars[line.lowerBound].cp) { line = (line.lowerBound + 1)..<line.upperBound }
            while !line.isEmpty, whitespace.contains(c.chars[line.upperBound - 1].cp) { line = line.lowerBound..<(line.upperBound - 1) }
            // An empty line still feeds a line and counts for the vertical alignment (MapLibre's lineCount).
            if line.isEmpty { y += lineHeight; shaping.lineCount += 1; continue }
            let laid = layOutLine(line, c, text, y: y, lineHeight: lineHeight, justify: justify, imageFactor: imageFactor,
                                  writingMode: writingMode, allowVerticalPlacement: allowVerticalPlacement, into: &shaping)
            if let length = laid.length { maxLineLength = max(length, maxLineLength) }
            y += laid.height
            maxLineHeight = max(laid.height, maxLineHeight)
            shaping.lineCount += 1
        }
        guard !shaping.glyphs.isEmpty else { return Shaping() }
        align(&shaping, anchor: anchor, justify: justify, height: y, width: maxLineLength,
              uniformLineHeight: maxLineHeight == lineHeight, lineHeight: lineHeight)
        return shaping
    }

    /// The label's lines as ranges of `c.chars`: broken to fit `maxWidth` and at newlines.
    static func lineRanges(_ c: ShapingChars, _ text: BidiText, maxWidth width: Double) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        guard !c.chars.isEmpty else { return lines }
        // Line placement and a zero text-max-width break only at newlines.
        var breaks = text.addingParagraphBreaks(lineBreaks(c.chars.map(\.cp), advance: c.advance, maxWidth: width,
                                                           isImage: { c.imageSizes[c.chars[$0].section] != nil }))
        if breaks.last != c.chars.count { breaks.append(c.chars.count) }
        var start = 0
        for b in breaks where b > start || b == c.chars.count {
            lines.append(start..<b); start = b
        }
        return lines
    }

    /// Lays out one line of glyphs (trimmed, not empty) at height `y`, appending them to
    /// `shaping` justified within the line: the line's length (nil when it drew no glyph) and
    /// height.
    static func layOutLine(_ line: Range<Int>, _ c: ShapingChars, _ text: BidiText, y: Double, lineHeight: Double, justify: Double,
                           imageFactor: Double, writingMode: WritingMode, allowVerticalPlacement: Bool,
                           into shaping: inout Shaping) -> (length: Double?, height: Double) {
        let chars = c.chars, scales = c.scales, imageSizes = c.imageSizes, spacing = c.spacing
        var lineMaxScale = 0.0, maxImageWidth = 0.0, maxImageHeight = 0.0
        for i in line {
            let si = chars[i].section
            lineMaxScale = max(lineMaxScale, scales[si])
            if let size = imageSizes[si] {
                maxImageWidth = max(maxImageWidth, size.w); maxImageHeight = max(maxImageHeight, size.h)
            }
        }
        let contentHeight = max(lineMaxScale * oneEm, maxImageHeight * imageFactor)
        let contentWidth = max(lineMaxScale * oneEm, maxImageWidth * imageFactor)
        var x = 0.0, imageOffset = 0.0
        let first = shaping.glyphs.count
        for i in text.visualOrder(line) {
            guard var slot = chars[i].slot else { continue }
            let cp = chars[i].cp, si = chars[i].section
            let vertical = writingMode == .vertical && (allowVerticalPlacement
                ? !(whitespace.contains(cp) || VerticalText.inComplexShapingScript(cp))
                : VerticalText.hasUprightOrientation(cp))
            var scale = scales[si], baselineOffset: Double, verticalAdvance = oneEm
            if let (w, h) = imageSizes[si] {
                scale *= imageFactor
                slot.advance = vertical ? h : w
                baselineOffset = vertical ? contentWidth - h * scale : (contentHeight - h * scale) * c.aligns[si]
                verticalAdvance = slot.advance
                // An image taller than the line's em pushes the line down.
                imageOffset = max(imageOffset, (vertical ? w : h) * scale - oneEm * lineMaxScale)
            } else {
                baselineOffset = vertical ? contentWidth - scale * oneEm : (contentHeight - scale * oneEm) * c.aligns[si]
            }
            shaping.glyphs.append(PositionedGlyph(x: x, y: y + baselineOffset + defaultOffset, scale: scale, section: si,
                                                  slot: slot, vertical: vertical, imageTexelsPerUnit: c.imageTexels[si]))
            x += (vertical ? verticalAdvance : slot.advance) * scale + spacing
            if vertical { shaping.verticalizable = true }
        }
        var length: Double?
        if shaping.glyphs.count > first {
            length = x - spacing
            // Justify the line within itself.
            let last = shaping.glyphs[shaping.glyphs.count - 1]
            let indent = (last.x + last.slot.advance * last.scale) * justify
            let lineOffset = max(imageOffset, (lineMaxScale - 1) * oneEm)
            for j in first..<shaping.glyphs.count { shaping.glyphs[j].x -= indent; shaping.glyphs[j].lineOffset = lineOffset }
        }
        return (length, lineHeight * lineMaxScale + imageOffset)
    }

    /// Moves the laid-out lines (`width` × `height`, 24 px units) to sit at `anchor`, and sets the
    /// box around them (already moved by the offset).
    static func align(_ shaping: inout Shaping, anchor: SymbolLayer.Anchor, justify: Double, height: Double, width maxLineLength: Double,
                      uniformLineHeight: Bool, lineHeight: Double) {
        let (hAlign, vAlign) = alignment(anchor)
        let shiftX = (justify - hAlign) * maxLineLength
        let shiftY = !uniformLineHeight
            ? -height * vAlign - defaultOffset
            : (-vAlign * Double(shaping.lineCount) + 0.5) * lineHeight
        for j in shaping.glyphs.indices { shaping.glyphs[j].x += shiftX; shaping.glyphs[j].y += shiftY }
        shaping.top += -vAlign * height
        shaping.bottom = shaping.top + height
        shaping.left += -hAlign * maxLineLength
        shaping.right = shaping.left + maxLineLength
    }

    /// MapLibre's balanced line breaking: break indices (exclusive ends of lines).
    static func lineBreaks(_ cps: [UInt32], advance: (Int) -> Double, maxWidth: Double,
                           isImage: (Int) -> Bool = { _ in false }) -> [Int] {
        var total = 0.0
        for i in cps.indices { total += advance(i) }
        // The balanced width of a line: the text split into as few lines as fit `maxWidth`; 0 when
        // nothing fits (a maxWidth of 0), which breaks wherever the text allows.
        let target = maxWidth > 0 ? total / max(1, (total / maxWidth).rounded(.up)) : 0
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
        let hasZeroWidthSpace = cps.contains(0x200b)
        for i in cps.indices {
            let cp = cps[i]
            if !whitespace.contains(cp) { x += advance(i) }
            guard i < cps.count - 1 else { continue }
            let ideographic = allowsIdeographicBreaking(cp)
            let next = cps[i + 1]
            if breakable.contains(cp) || ideographic || isImage(i) || (i != cps.count - 2 && next == 0x28) {
                var penalty = 0.0
                if cp == 0x0a { penalty -= 10000 }
                // With zero-width spaces in the text, those are the preferred breaks.
                if ideographic && hasZeroWidthSpace { penalty += 150 }
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

/// A label's characters (code point, section, glyph slot: nil where the font has none) and the
/// per-section values line layout reads, kept per section so that its loops copy no section.
struct ShapingChars {
    let chars: [(cp: UInt32, section: Int, slot: GlyphSlot?)]
    let scales: [Double], aligns: [Double]
    let imageSizes: [(w: Double, h: Double)?]
    let imageTexels: [Double]
    /// text-letter-spacing (24 px units; 0 where the script allows none).
    let spacing: Double
    let layoutTextSize: Double

    init(_ text: BidiText, _ sections: [TextSection], provider: SymbolResourceProvider, spacing: Double, layoutTextSize: Double) {
        var chars: [(cp: UInt32, section: Int, slot: GlyphSlot?)] = []
        chars.reserveCapacity(text.codepoints.count)
        for (cp, si) in zip(text.codepoints, text.sectionOf) {
            if let image = sections[si].image {
                chars.append((cp, si, TextShaper.imageSlot(image)))
            } else {
                chars.append((cp, si, provider.glyph(fonts: sections[si].fonts, codepoint: cp)))
            }
        }
        self.chars = chars
        scales = sections.map(\.scale); aligns = sections.map(\.verticalAlign)
        imageSizes = sections.map { $0.image?.displaySize }
        imageTexels = sections.map { $0.image.map { $0.pixelRatio * $0.baseScale } ?? 0 }
        self.spacing = spacing
        self.layoutTextSize = layoutTextSize
    }

    /// The advance of character `i` (24 px units, letter spacing included).
    func advance(_ i: Int) -> Double {
        guard let slot = chars[i].slot else { return 0 }
        let si = chars[i].section
        if let size = imageSizes[si] { return size.w * scales[si] * TextShaper.oneEm / layoutTextSize + spacing }
        return slot.advance * scales[si] + spacing
    }
}
