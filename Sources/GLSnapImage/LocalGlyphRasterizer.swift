import CFontconfig
import CFreeType
import Foundation

/// A glyph drawn from a local font: its SDF (`width + 6` × `height + 6`, the PBF form) and
/// metrics at 24 px, with `top` measured from the font's ascender as glyph PBFs measure it.
public struct LocalGlyph: Sendable {
    public var sdf: [UInt8]
    public var width: Int, height: Int
    public var left: Int, top: Int, advance: Int
}

/// Glyphs from the fonts installed on this machine, found by fontconfig and drawn with FreeType
/// into the same SDF form as glyph PBFs (24 px, 3 px border), for labels whose glyph ranges are
/// missing. Thread-safe; faces are opened once and kept.
public final class LocalGlyphRasterizer: @unchecked Sendable {
    public static let size = 24
    public static let border = 3
    /// The largest glyph bitmap side accepted (a 24 px glyph is far smaller).
    static let maxSide = 256

    private let lock = NSLock()
    private var library: FT_Library?
    private var faces: [String: FT_Face] = [:]
    private var fontFiles: [String: String?] = [:]
    private var failed = false

    public init() {}

    deinit {
        for face in faces.values { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    /// The glyph for `codepoint` from the local font that best matches `font` (a style font
    /// name such as "Noto Sans Bold": family, then weight and slant words) and has it; nil when
    /// no installed font has it or FreeType fails.
    public func glyph(font: String, codepoint: UInt32) -> LocalGlyph? {
        guard codepoint > 0, codepoint <= 0x10FFFF else { return nil }
        lock.lock(); defer { lock.unlock() }
        guard let face = face(for: font, codepoint: codepoint) else { return nil }
        let index = FT_Get_Char_Index(face, FT_ULong(codepoint))
        guard index != 0 else { return nil }
        guard FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_NO_HINTING)) == 0,
              let slot = face.pointee.glyph,
              FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
        let bitmap = slot.pointee.bitmap
        let w = Int(bitmap.width), h = Int(bitmap.rows)
        guard w <= LocalGlyphRasterizer.maxSide, h <= LocalGlyphRasterizer.maxSide else { return nil }
        let ascender = Int((face.pointee.size.pointee.metrics.ascender + 63) >> 6)
        let advance = Int((slot.pointee.advance.x + 32) >> 6)
        var coverage = [UInt8](repeating: 0, count: w * h)
        if w > 0, h > 0, let buffer = bitmap.buffer {
            let pitch = Int(bitmap.pitch)
            for y in 0..<h {
                let row = pitch >= 0 ? y * pitch : (h - 1 - y) * -pitch
                for x in 0..<w { coverage[y * w + x] = buffer[row + x] }
            }
        }
        let sdf = w > 0 && h > 0
            ? SignedDistance.field(coverage: coverage, width: w, height: h, border: LocalGlyphRasterizer.border) : []
        return LocalGlyph(sdf: sdf, width: w > 0 && h > 0 ? w : 0, height: w > 0 && h > 0 ? h : 0,
                          left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top) - ascender, advance: advance)
    }

    /// The FreeType face for `font` that has `codepoint`; the caller holds the lock.
    private func face(for font: String, codepoint: UInt32) -> FT_Face? {
        if failed { return nil }
        if library == nil {
            var lib: FT_Library?
            guard FT_Init_FreeType(&lib) == 0, let lib else { failed = true; return nil }
            library = lib
        }
        let key = "\(font)\u{0}\(codepoint >> 8)"
        let path: String?
        if let cached = fontFiles[key] { path = cached } else {
            path = LocalGlyphRasterizer.match(font: font, codepoint: codepoint)
            fontFiles[key] = .some(path)
        }
        guard let path else { return nil }
        if let face = faces[path] { return face }
        let parts = path.split(separator: "\u{0}", maxSplits: 1)
        guard let file = parts.first, let library else { return nil }
        let faceIndex = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        var face: FT_Face?
        guard FT_New_Face(library, String(file), FT_Long(faceIndex), &face) == 0, let face else { return nil }
        guard FT_Set_Pixel_Sizes(face, 0, FT_UInt(LocalGlyphRasterizer.size)) == 0 else { FT_Done_Face(face); return nil }
        faces[path] = face
        return face
    }

    /// fontconfig's best installed font for `font` that covers `codepoint`, as "file\0index".
    static func match(font: String, codepoint: UInt32) -> String? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        var family: [Substring] = []
        var weight = FC_WEIGHT_REGULAR, slant = FC_SLANT_ROMAN
        for word in font.split(separator: " ") {
            switch word.lowercased() {
            case "bold": weight = FC_WEIGHT_BOLD
            case "semibold": weight = FC_WEIGHT_SEMIBOLD
            case "medium": weight = FC_WEIGHT_MEDIUM
            case "light": weight = FC_WEIGHT_LIGHT
            case "black", "heavy": weight = FC_WEIGHT_BLACK
            case "italic", "oblique": slant = FC_SLANT_ITALIC
            case "regular", "book", "normal": break
            default: family.append(word)
            }
        }
        let name = family.isEmpty ? "sans-serif" : family.joined(separator: " ")
        _ = FcPatternAddString(pattern, FC_FAMILY, name)
        _ = FcPatternAddInteger(pattern, FC_WEIGHT, Int32(weight))
        _ = FcPatternAddInteger(pattern, FC_SLANT, Int32(slant))
        if let charset = FcCharSetCreate() {
            _ = FcCharSetAddChar(charset, FcChar32(codepoint))
            _ = FcPatternAddCharSet(pattern, FC_CHARSET, charset)
            FcCharSetDestroy(charset)
        }
        _ = FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let matched = FcFontMatch(nil, pattern, &result) else { return nil }
        defer { FcPatternDestroy(matched) }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(matched, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(matched, FC_INDEX, 0, &index)
        return String(cString: file) + "\u{0}\(index)"
    }
}
