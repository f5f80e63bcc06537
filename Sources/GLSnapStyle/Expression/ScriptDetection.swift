/// Which scripts glyph-PBF text can draw, as MapLibre GL JS judges it (`script_detection`): the
/// answer of `is-supported-script`, and the rules symbol layout applies per script.
public enum ScriptDetection {
    /// Hebrew, Arabic, Syriac, Thaana, NKo and the other right-to-left blocks up to U+08FF, and the
    /// Arabic presentation forms: what MapLibre counts as needing its RTL support.
    public static func isRightToLeft(_ cp: UInt32) -> Bool {
        switch cp {
        case 0x0590...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return true
        default: return false
        }
    }

    /// Arabic letters join, so letter spacing would tear words apart: MapLibre drops
    /// `text-letter-spacing` for a label with any of them.
    public static func allowsLetterSpacing(_ cp: UInt32) -> Bool {
        switch cp {
        case 0x0600...0x06FF, 0x0750...0x077F, 0x0870...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return false
        default: return true
        }
    }

    /// Whether glsnap draws `cp` acceptably. Indic scripts, Sinhala, Tibetan, Myanmar and Khmer
    /// need reordering and conjuncts that per-code-point glyphs cannot give (the blocks of
    /// CLDR's script metadata with "shaping required" and web rank <= 32, as MapLibre lists
    /// them); right-to-left text is drawn when `rightToLeft` says it is shaped and reordered.
    public static func isSupported(_ cp: UInt32, rightToLeft: Bool) -> Bool {
        if !rightToLeft && isRightToLeft(cp) { return false }
        switch cp {
        case 0x0900...0x0DFF, 0x0F00...0x109F, 0x1780...0x17FF: return false
        default: return true
        }
    }

    /// `is-supported-script` for a whole string.
    public static func isSupported(_ text: String, rightToLeft: Bool) -> Bool {
        text.unicodeScalars.allSatisfy { isSupported($0.value, rightToLeft: rightToLeft) }
    }
}
