import GLSnapStyle

/// Vertical writing: which characters stand upright in a vertical line, which punctuation has a
/// vertical form, after Unicode's VerticalOrientation.txt as MapLibre reads it (BMP only, as its
/// glyph ranges are).
public enum WritingMode: Sendable, Equatable {
    case horizontal, vertical

    /// `text-writing-mode` as MapLibre reads it: duplicates dropped in order; when unset, point
    /// labels are horizontal only and line labels may turn vertical.
    public static func modes(_ values: [String]?, placement: SymbolLayer.Placement) -> [WritingMode] {
        guard let values, !values.isEmpty else { return placement == .point ? [.horizontal] : [.horizontal, .vertical] }
        var out: [WritingMode] = []
        for v in values {
            let m: WritingMode? = v == "horizontal" ? .horizontal : (v == "vertical" ? .vertical : nil)
            if let m, !out.contains(m) { out.append(m) }
        }
        return out
    }
}

enum VerticalText {
    /// Whether any character of `text` stands upright in vertical text (a label worth a vertical shaping).
    static func allowsVerticalWritingMode(_ text: [UInt32]) -> Bool {
        text.contains(where: hasUprightOrientation)
    }

    /// Drawn upright (unrotated) in a vertical line whatever its neighbours: CJK ideographs, kana,
    /// Hangul, fullwidth forms and the like.
    static func hasUprightOrientation(_ c: UInt32) -> Bool {
        if c == 0x02EA || c == 0x02EB { return true }
        if c < 0x1100 { return false }
        switch c {
        case 0xFE30...0xFE4F: return !(0xFE49...0xFE4F).contains(c)           // CJK compatibility forms
        case 0x3300...0x33FF, 0x31C0...0x31EF: return true                     // CJK compatibility, strokes
        case 0x3000...0x303F:                                                   // CJK symbols and punctuation
            return !(0x3008...0x3011).contains(c) && !(0x3014...0x301F).contains(c) && c != 0x3030
        case 0x3200...0x32FF, 0x2FF0...0x2FFF, 0x3190...0x319F: return true    // enclosed CJK, IDC, kanbun
        case 0x30A0...0x30FF: return c != 0x30FC                                // katakana
        case 0xFF00...0xFFEF:                                                   // halfwidth and fullwidth forms
            return c != 0xFF08 && c != 0xFF09 && c != 0xFF0D && !(0xFF1A...0xFF1E).contains(c) && c != 0xFF3B
                && c != 0xFF3D && c != 0xFF3F && !(0xFF5B...0xFFDF).contains(c) && c != 0xFFE3 && !(0xFFE8...0xFFEF).contains(c)
        case 0xFE50...0xFE6F: return !(0xFE58...0xFE5E).contains(c) && !(0xFE63...0xFE66).contains(c)  // small forms
        case 0xFE10...0xFE1F, 0x4DC0...0x4DFF: return true                     // vertical forms, Yijing
        case 0x1400...0x167F, 0x18B0...0x18FF: return true                     // Canadian syllabics
        case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7FF: return true  // Hangul
        case 0x2E80...0x2FDF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF: return true  // Han
        case 0x3040...0x309F, 0x31F0...0x31FF: return true                     // hiragana, katakana extension
        case 0x3100...0x312F, 0x31A0...0x31BF, 0xA000...0xA4CF: return true    // bopomofo, Yi
        default: return false
        }
    }

    /// Upright or rotated depending on its neighbours (symbols, fractions, CJK punctuation).
    static func hasNeutralOrientation(_ c: UInt32) -> Bool {
        switch c {
        case 0x00A7, 0x00A9, 0x00AE, 0x00B1, 0x00BC, 0x00BD, 0x00BE, 0x00D7, 0x00F7: return true
        case 0x2016, 0x2020, 0x2021, 0x2030, 0x2031, 0x203B, 0x203C, 0x2042, 0x2047, 0x2048, 0x2049, 0x2051: return true
        case 0x2100...0x218F: return true                                       // letterlike, number forms
        case 0x2300...0x23FF:                                                   // miscellaneous technical
            return (0x2300...0x2307).contains(c) || (0x230C...0x231F).contains(c) || (0x2324...0x2328).contains(c)
                || c == 0x232B || (0x237D...0x239A).contains(c) || (0x23BE...0x23CD).contains(c) || c == 0x23CF
                || (0x23D1...0x23DB).contains(c) || (0x23E2...0x23FF).contains(c)
        case 0x2400...0x243F: return c != 0x2423                                // control pictures
        case 0x2440...0x24FF, 0x25A0...0x25FF: return true                      // OCR, enclosed alphanumerics, shapes
        case 0x2600...0x26FF: return !(0x261A...0x261F).contains(c)             // miscellaneous symbols
        case 0x2B00...0x2BFF:
            return (0x2B12...0x2B2F).contains(c) || (0x2B50...0x2B59).contains(c) || (0x2BB8...0x2BEB).contains(c)
        case 0x3000...0x303F, 0x30A0...0x30FF, 0xE000...0xF8FF, 0xFE30...0xFE4F, 0xFE50...0xFE6F, 0xFF00...0xFFEF: return true
        case 0x221E, 0x2234, 0x2235, 0x2700...0x2767, 0x2776...0x2793, 0xFFFC, 0xFFFD: return true
        default: return false
        }
    }

    /// Turned with the line in vertical text (Latin letters, most punctuation).
    static func hasRotatedOrientation(_ c: UInt32) -> Bool {
        !(hasUprightOrientation(c) || hasNeutralOrientation(c))
    }

    /// Arabic and its presentation forms: shaped as a run, never set upright.
    static func inComplexShapingScript(_ c: UInt32) -> Bool {
        switch c {
        case 0x0600...0x06FF, 0x0750...0x077F, 0x0870...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return true
        default: return false
        }
    }

    /// Punctuation and brackets with a vertical presentation form (U+FE10..FE4F and fullwidth forms).
    static let verticalForms: [UInt32: UInt32] = [
        0x21: 0xFE15, 0x23: 0xFF03, 0x24: 0xFF04, 0x25: 0xFF05, 0x26: 0xFF06, 0x28: 0xFE35, 0x29: 0xFE36,
        0x2A: 0xFF0A, 0x2B: 0xFF0B, 0x2C: 0xFE10, 0x2D: 0xFE32, 0x2E: 0x30FB, 0x2F: 0xFF0F, 0x3A: 0xFE13,
        0x3B: 0xFE14, 0x3C: 0xFE3F, 0x3D: 0xFF1D, 0x3E: 0xFE40, 0x3F: 0xFE16, 0x40: 0xFF20, 0x5B: 0xFE47,
        0x5C: 0xFF3C, 0x5D: 0xFE48, 0x5E: 0xFF3E, 0x5F: 0xFE33, 0x60: 0xFF40, 0x7B: 0xFE37, 0x7C: 0x2015,
        0x7D: 0xFE38, 0x7E: 0xFF5E, 0xA2: 0xFFE0, 0xA3: 0xFFE1, 0xA5: 0xFFE5, 0xA6: 0xFFE4, 0xAC: 0xFFE2,
        0xAF: 0xFFE3, 0x2013: 0xFE32, 0x2014: 0xFE31, 0x2018: 0xFE43, 0x2019: 0xFE44, 0x201C: 0xFE41,
        0x201D: 0xFE42, 0x2026: 0xFE19, 0x22EF: 0xFE19, 0x2027: 0x30FB, 0x20A9: 0xFFE6, 0x3001: 0xFE11,
        0x3002: 0xFE12, 0x3008: 0xFE3F, 0x3009: 0xFE40, 0x300A: 0xFE3D, 0x300B: 0xFE3E, 0x300C: 0xFE41,
        0x300D: 0xFE42, 0x300E: 0xFE43, 0x300F: 0xFE44, 0x3010: 0xFE3B, 0x3011: 0xFE3C, 0x3014: 0xFE39,
        0x3015: 0xFE3A, 0x3016: 0xFE17, 0x3017: 0xFE18, 0xFF01: 0xFE15, 0xFF08: 0xFE35, 0xFF09: 0xFE36,
        0xFF0C: 0xFE10, 0xFF0D: 0xFE32, 0xFF0E: 0x30FB, 0xFF1A: 0xFE13, 0xFF1B: 0xFE14, 0xFF1C: 0xFE3F,
        0xFF1E: 0xFE40, 0xFF1F: 0xFE16, 0xFF3B: 0xFE47, 0xFF3D: 0xFE48, 0xFF3F: 0xFE33, 0xFF5B: 0xFE37,
        0xFF5C: 0x2015, 0xFF5D: 0xFE38, 0xFF5F: 0xFE35, 0xFF60: 0xFE36, 0xFF61: 0xFE12, 0xFF62: 0xFE41,
        0xFF63: 0xFE42,
    ]

    /// Replaces punctuation by its vertical form, except inside a run of rotated characters (a
    /// Latin word keeps its own comma): a character is replaced when neither neighbour is a rotated
    /// character without a vertical form of its own.
    static func verticalizePunctuation(_ text: [UInt32]) -> [UInt32] {
        var out = text
        func keepsRun(_ c: UInt32) -> Bool { hasRotatedOrientation(c) && verticalForms[c] == nil }
        for i in text.indices {
            guard let form = verticalForms[text[i]] else { continue }
            if i + 1 < text.count && keepsRun(text[i + 1]) { continue }
            if i > 0 && keepsRun(text[i - 1]) { continue }
            out[i] = form
        }
        return out
    }
}
