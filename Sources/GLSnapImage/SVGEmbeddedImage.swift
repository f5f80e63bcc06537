/// The `data:` images an SVG embeds, read only as far as their size: librsvg (through gdk-pixbuf)
/// decodes such an image whole, so its header decides what it will cost.
enum SVGEmbeddedImage {
    enum Kind: Equatable {
        /// A nested SVG document, scanned in turn.
        case svg
        /// A raster format and its pixel count (all frames of a GIF), nil when the header is unreadable.
        case raster(format: String, pixels: Int?)
        /// Anything else (gzip, BMP, TIFF, ...): refused, since its size cannot be checked.
        case other
    }

    /// The bytes of a `data:[type][;base64],payload` URI (percent-escapes decoded, then base64
    /// when flagged, skipping whitespace as browsers and GLib do); nil without the comma.
    static func decodeDataURI(_ uri: [UInt8]) -> [UInt8]? {
        guard uri.count > 5, let comma = uri.firstIndex(of: UInt8(ascii: ",")) else { return nil }
        let header = String(decoding: uri[5..<comma], as: UTF8.self).lowercased()
        let payload = percentDecoded(uri[(comma + 1)...])
        return header.hasSuffix(";base64") ? base64Decoded(payload) : payload
    }

    private static func percentDecoded(_ s: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = s.startIndex
        while i < s.endIndex {
            if s[i] == UInt8(ascii: "%"), i + 2 < s.endIndex, let h = hexValue(s[i + 1]), let l = hexValue(s[i + 2]) {
                out.append(h << 4 | l); i += 3
            } else {
                out.append(s[i]); i += 1
            }
        }
        return out
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - 48
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - 87
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - 55
        default: return nil
        }
    }

    private static func base64Decoded(_ s: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.count / 4 * 3)
        var bits: UInt32 = 0, count = 0
        decoding: for c in s {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - 65)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - 71)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c) + 4
            case UInt8(ascii: "+"), UInt8(ascii: "-"): v = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): v = 63
            case UInt8(ascii: "="): break decoding
            default: continue
            }
            bits = bits << 6 | v
            count += 1
            if count == 4 {
                out.append(UInt8(bits >> 16 & 0xFF)); out.append(UInt8(bits >> 8 & 0xFF)); out.append(UInt8(bits & 0xFF))
                bits = 0; count = 0
            }
        }
        if count >= 2 { out.append(UInt8(bits >> (6 * UInt32(count) - 8) & 0xFF)) }
        if count == 3 { out.append(UInt8(bits >> 2 & 0xFF)) }
        return out
    }

    /// What `data` is, by its magic bytes (not by the URI's claimed type: gdk-pixbuf sniffs too).
    static func kind(of data: [UInt8]) -> Kind {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            data.count >= offset + magic.count && Array(data[offset..<(offset + magic.count)]) == magic
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .raster(format: "PNG", pixels: pngPixels(data)) }
        if starts([0xFF, 0xD8, 0xFF]) { return .raster(format: "JPEG", pixels: jpegPixels(data)) }
        if starts(Array("GIF8".utf8)) { return .raster(format: "GIF", pixels: gifPixels(data)) }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .raster(format: "WebP", pixels: webpPixels(data)) }
        var i = 0
        if starts([0xEF, 0xBB, 0xBF]) { i = 3 }
        while i < data.count, data[i] == 0x20 || data[i] == 0x09 || data[i] == 0x0A || data[i] == 0x0D { i += 1 }
        if i < data.count, data[i] == UInt8(ascii: "<") { return .svg }
        return .other
    }

    private static func be16(_ d: [UInt8], _ i: Int) -> Int { Int(d[i]) << 8 | Int(d[i + 1]) }
    private static func le16(_ d: [UInt8], _ i: Int) -> Int { Int(d[i]) | Int(d[i + 1]) << 8 }
    private static func le24(_ d: [UInt8], _ i: Int) -> Int { le16(d, i) | Int(d[i + 2]) << 16 }

    /// A positive width × height (saturated: a forged 32-bit header must not overflow), else nil.
    private static func area(_ w: Int, _ h: Int) -> Int? {
        guard w > 0, h > 0 else { return nil }
        let (product, overflow) = w.multipliedReportingOverflow(by: h)
        return overflow ? Int.max / 4 : min(product, Int.max / 4)
    }

    /// IHDR, the first chunk: width and height as 32-bit big-endian at bytes 16 and 20.
    private static func pngPixels(_ d: [UInt8]) -> Int? {
        guard d.count >= 24, Array(d[12..<16]) == Array("IHDR".utf8) else { return nil }
        return area(be16(d, 16) << 16 | be16(d, 18), be16(d, 20) << 16 | be16(d, 22))
    }

    /// The first start-of-frame segment (SOF0...SOF15 but DHT, JPG and DAC), found by walking the
    /// segment lengths.
    private static func jpegPixels(_ d: [UInt8]) -> Int? {
        var i = 2
        while i + 4 <= d.count {
            guard d[i] == 0xFF else { return nil }
            let marker = d[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            if marker == 0xD9 || marker == 0xDA { return nil }  // end of image or scan data before any frame
            let length = be16(d, i + 2)
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard i + 9 <= d.count else { return nil }
                return area(be16(d, i + 7), be16(d, i + 5))
            }
            guard length >= 2 else { return nil }
            i += 2 + length
        }
        return nil
    }

    /// Every frame counts at least the logical screen (gdk-pixbuf composites each onto it).
    private static func gifPixels(_ d: [UInt8]) -> Int? {
        guard d.count >= 13, let screen = area(le16(d, 6), le16(d, 8)) else { return nil }
        var i = 13
        if d[10] & 0x80 != 0 { i += 3 << (Int(d[10] & 7) + 1) }
        var total = 0, frames = 0
        func skipSubBlocks() {
            while i < d.count {
                let n = Int(d[i]); i += 1
                if n == 0 { return }
                i += n
            }
        }
        while i < d.count {
            switch d[i] {
            case 0x21:
                i += 2; skipSubBlocks()
            case 0x2C:
                guard i + 10 <= d.count else { return total + (frames == 0 ? screen : 0) }
                frames += 1
                total += max(screen, le16(d, i + 5) * le16(d, i + 7))
                let flags = d[i + 9]
                i += 10
                if flags & 0x80 != 0 { i += 3 << (Int(flags & 7) + 1) }
                i += 1; skipSubBlocks()
            default:
                return frames == 0 ? screen : total
            }
        }
        return frames == 0 ? screen : total
    }

    /// The canvas of an extended (VP8X), lossy (VP8) or lossless (VP8L) WebP.
    private static func webpPixels(_ d: [UInt8]) -> Int? {
        guard d.count >= 30 else { return nil }
        switch String(decoding: d[12..<16], as: UTF8.self) {
        case "VP8X": return area(1 + le24(d, 24), 1 + le24(d, 27))
        case "VP8 ":
            guard d[23] == 0x9D, d[24] == 0x01, d[25] == 0x2A else { return nil }
            return area(le16(d, 26) & 0x3FFF, le16(d, 28) & 0x3FFF)
        case "VP8L":
            guard d[20] == 0x2F else { return nil }
            let bits = le16(d, 21) | le16(d, 23) << 16
            return area(1 + bits & 0x3FFF, 1 + (bits >> 14) & 0x3FFF)
        default: return nil
        }
    }
}
