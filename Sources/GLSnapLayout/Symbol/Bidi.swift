import CFriBidi
import GLSnapStyle

/// A label's text prepared for shaping the way MapLibre's RTL support prepares it: Arabic letters
/// in their joined presentation forms (per section), embedding levels by the Unicode bidirectional
/// algorithm per paragraph (FriBidi), mirrored brackets in right-to-left runs, and, once lines are
/// broken, each line's characters in visual order with the bidi controls left out.
///
/// Text with nothing right-to-left in it (Latin, CJK, Cyrillic, ...) takes a fast path: the
/// code points as they are, each line in logical order.
struct BidiText {
    /// FriBidi's "auto" paragraph direction: the first strong character's, else left to right
    /// (ICU's UBIDI_DEFAULT_LTR, which MapLibre asks for).
    static let autoDirection = FRIBIDI_PAR_ON
    /// FriBidi's left-to-right paragraph direction (FRIBIDI_PAR_LTR).
    static let leftToRight = FRIBIDI_PAR_LTR

    /// The code points to look glyphs up for, in logical order.
    private(set) var codepoints: [UInt32] = []
    /// The section of each code point.
    private(set) var sectionOf: [Int] = []
    /// False when any character is Arabic: MapLibre then draws the label without letter spacing.
    private(set) var allowsLetterSpacing = true
    /// Embedding levels of `codepoints`; empty on the fast path (all level 0).
    private var levels: [FriBidiLevel] = []
    private var types: [FriBidiCharType] = []
    /// The paragraphs (split at paragraph separators) and the direction each resolved to.
    private var paragraphs: [(range: Range<Int>, direction: FriBidiParType)] = []

    init(_ sections: [TextSection]) {
        var needsBidi = false
        for s in sections where s.text.contains(where: BidiText.mayReorder) { needsBidi = true; break }
        for (si, s) in sections.enumerated() {
            let text = needsBidi ? ArabicShaping.shape(s.text) : s.text
            codepoints += text
            sectionOf += repeatElement(si, count: text.count)
            if needsBidi, allowsLetterSpacing, !s.text.allSatisfy(ScriptDetection.allowsLetterSpacing) { allowsLetterSpacing = false }
        }
        if needsBidi { resolveLevels() }
    }

    /// Whether `cp` can make a line's order differ from its logical order: a right-to-left
    /// letter, an Arabic digit, or an explicit bidi control.
    static func mayReorder(_ cp: UInt32) -> Bool {
        // A paragraph separator other than a newline (which breaks the line anyway) starts a line.
        guard cp >= 0x0590 else { return cp != 0x0A && isParagraphSeparator(cp) }
        return ScriptDetection.isRightToLeft(cp) || isControl(cp) || (0x10800...0x10FFF).contains(cp) || (0x1E800...0x1EFFF).contains(cp)
    }

    /// The explicit bidi formatting characters, which ICU's UBIDI_REMOVE_BIDI_CONTROLS leaves out of the visual text.
    static func isControl(_ cp: UInt32) -> Bool {
        switch cp {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// The characters of Unicode bidi class B, which end a paragraph.
    static func isParagraphSeparator(_ cp: UInt32) -> Bool {
        switch cp {
        case 0x0A, 0x0D, 0x1C...0x1E, 0x85, 0x2029: return true
        default: return false
        }
    }

    /// Levels per paragraph, then mirrored code points where the level is right to left.
    private mutating func resolveLevels() {
        let n = codepoints.count
        let chars = codepoints.map { FriBidiChar($0) }
        types = [FriBidiCharType](repeating: FriBidiCharType(0), count: n)
        levels = [FriBidiLevel](repeating: 0, count: n)
        var brackets = [FriBidiBracketType](repeating: 0, count: n)
        guard let count = FriBidiStrIndex(exactly: n) else { levels = []; return }
        fribidi_get_bidi_types(chars, count, &types)
        fribidi_get_bracket_types(chars, count, types, &brackets)
        var start = 0
        while start < n {
            var end = start
            while end < n, !BidiText.isParagraphSeparator(codepoints[end]) { end += 1 }
            if end < n { end += 1 }  // the separator belongs to the paragraph it ends
            var direction = BidiText.autoDirection
            let resolved = types.withUnsafeBufferPointer { t in
                brackets.withUnsafeBufferPointer { b in
                    levels.withUnsafeMutableBufferPointer { l in
                        fribidi_get_par_embedding_levels_ex(t.baseAddress! + start, b.baseAddress! + start,
                                                            FriBidiStrIndex(end - start), &direction, l.baseAddress! + start)
                    }
                }
            }
            if resolved == 0 {
                // FriBidi failed (out of memory): this paragraph stays left to right, in logical order.
                for i in start..<end { levels[i] = 0 }
                direction = BidiText.leftToRight
            }
            paragraphs.append((start..<end, direction))
            start = end
        }
        for i in 0..<n where levels[i] & 1 == 1 {
            var mirrored: FriBidiChar = 0
            if fribidi_get_mirror_char(chars[i], &mirrored) != 0 { codepoints[i] = UInt32(mirrored) }
        }
    }

    /// `breaks` (exclusive line ends) with each paragraph's end added: ICU's bidi, as MapLibre
    /// runs it, starts a new line at every paragraph separator, whatever the line breaking chose.
    func addingParagraphBreaks(_ breaks: [Int]) -> [Int] {
        guard paragraphs.count > 1 else { return breaks }
        return Set(breaks).union(paragraphs.map(\.range.upperBound)).sorted()
    }

    /// The indices of `line` (a range of `codepoints`) in the order they are drawn, left to right.
    func visualOrder(_ line: Range<Int>) -> [Int] {
        guard !levels.isEmpty else { return Array(line) }
        var order: [Int] = []
        order.reserveCapacity(line.count)
        // A line that runs over a paragraph separator is reordered one paragraph at a time.
        for paragraph in paragraphs {
            let lower = max(line.lowerBound, paragraph.range.lowerBound), upper = min(line.upperBound, paragraph.range.upperBound)
            guard lower < upper else { continue }
            let piece = lower..<upper
            var map = Array(FriBidiStrIndex(0)..<FriBidiStrIndex(piece.count))
            var lineLevels = Array(levels[piece])
            let ok = types.withUnsafeBufferPointer { t in
                fribidi_reorder_line(0, t.baseAddress! + piece.lowerBound, FriBidiStrIndex(piece.count), 0,
                                     paragraph.direction, &lineLevels, nil, &map)
            }
            for (k, m) in map.enumerated() {
                let i = piece.lowerBound + (ok == 0 ? k : Int(m))
                if !BidiText.isControl(codepoints[i]) { order.append(i) }
            }
        }
        return order
    }
}
