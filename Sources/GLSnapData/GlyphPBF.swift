/// One SDF glyph of a glyph range: metrics in pixels at the 24 px SDF size, and its distance
/// field, `width + 6` by `height + 6` bytes (a 3-pixel border on each side).
public struct Glyph: Sendable, Equatable {
    /// The SDF border in pixels on each side of the bitmap.
    public static let border = 3
    /// The font size the SDFs are rendered at.
    public static let sdfSize = 24.0

    public var id: UInt32
    public var width: Int
    public var height: Int
    public var left: Int
    public var top: Int
    public var advance: Int
    /// Row-major bytes, `(width + 2*border) * (height + 2*border)`; empty for blank glyphs (space).
    public var bitmap: [UInt8]

    public init(id: UInt32, width: Int, height: Int, left: Int, top: Int, advance: Int, bitmap: [UInt8]) {
        self.id = id; self.width = width; self.height = height
        self.left = left; self.top = top; self.advance = advance; self.bitmap = bitmap
    }
}

/// Why glyph or sprite data could not be read.
public enum GlyphError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(url: String, reason: String)

    public var description: String {
        switch self {
        case let .malformed(url, reason): return "glyph range '\(url)' is not a valid glyph PBF: \(reason)"
        }
    }
}

/// Parses the glyph PBF format (`glyphs { repeated fontstack stacks = 1 }`, `fontstack { name = 1;
/// range = 2; repeated glyph glyphs = 3 }`, `glyph { id = 1; bitmap = 2; width = 3; height = 4;
/// left = 5 (sint); top = 6 (sint); advance = 7 }`).
public enum GlyphPBF {
    /// The largest glyph side accepted (SDF glyphs at 24 px are far smaller).
    public static let maxGlyphSide = 256

    /// The glyphs of every fontstack in `bytes` (gzip-compressed input is inflated first).
    /// A glyph whose bitmap does not match its size is dropped; broken framing throws.
    public static func parse(_ input: [UInt8], url: String = "") throws -> [Glyph] {
        let bytes = Inflate.isCompressed(input) ? try Inflate.inflate(input) : input
        do {
            return try bytes.withUnsafeBytes { buffer -> [Glyph] in
                var glyphs: [Glyph] = []
                var root = ProtobufReader(buffer)
                while let field = try root.nextField() {
                    guard field.number == 1, field.wireType == .lengthDelimited else { try root.skip(field); continue }
                    var stack = try root.readMessage()
                    while let f = try stack.nextField() {
                        guard f.number == 3, f.wireType == .lengthDelimited else { try stack.skip(f); continue }
                        var g = try stack.readMessage()
                        if let glyph = try readGlyph(&g) { glyphs.append(glyph) }
                    }
                }
                return glyphs
            }
        } catch let e as TileDecodeError {
            throw GlyphError.malformed(url: url, reason: "\(e)")
        }
    }

    private static func readGlyph(_ r: inout ProtobufReader) throws -> Glyph? {
        var id: UInt64?, width = 0, height = 0, left = 0, top = 0, advance = 0
        var bitmap: [UInt8] = []
        while let f = try r.nextField() {
            switch (f.number, f.wireType) {
            case (1, .varint): id = try r.readVarint()
            case (2, .lengthDelimited): bitmap = [UInt8](try r.readBytes())
            case (3, .varint): width = Int(clamping: try r.readVarint())
            case (4, .varint): height = Int(clamping: try r.readVarint())
            case (5, .varint): left = Int(clamping: try r.readSVarint())
            case (6, .varint): top = Int(clamping: try r.readSVarint())
            case (7, .varint): advance = Int(clamping: try r.readVarint())
            default: try r.skip(f)
            }
        }
        guard let id, id <= 0x10FFFF, width <= maxGlyphSide, height <= maxGlyphSide,
              abs(left) <= maxGlyphSide, abs(top) <= maxGlyphSide, advance <= maxGlyphSide * 4 else { return nil }
        if width > 0 && height > 0 {
            let b = Glyph.border * 2
            guard bitmap.count == (width + b) * (height + b) else { return nil }
        } else {
            bitmap = []
        }
        return Glyph(id: UInt32(id), width: width, height: height, left: left, top: top, advance: advance, bitmap: bitmap)
    }
}
