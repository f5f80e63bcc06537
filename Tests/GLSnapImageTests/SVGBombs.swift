import Foundation

/// The three SVG bombs of issue 17, generated (not committed): each is a small file that made
/// librsvg take gigabytes or many seconds before `SVGRasterizer.Limits` existed. Setting
/// `GLSNAP_WRITE_SVG_BOMBS=<folder>` while running `SVGLimitsTests` writes them there, with a
/// style that uses them, for measuring through `glsnap render`.
enum SVGBombs {
    static let header = #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">"#

    /// 190 KB: one 100 000-byte internal entity referenced 30 000 times inside `<text>` (3 GB of
    /// text once expanded; 13.5 GB of memory before the limits).
    static func entity() -> [UInt8] {
        let value = String(repeating: "x", count: 100_000)
        let refs = String(repeating: "&e;", count: 30_000)
        return Array(("<!DOCTYPE svg [<!ENTITY e \"\(value)\">]>\n" + header + "<text y=\"12\">\(refs)</text></svg>").utf8)
    }

    /// 10 000 characters of `<text>` (18 s per rasterization before the limits).
    static func text() -> [UInt8] {
        let words = String(repeating: "lorem ipsu", count: 1000)
        return Array((header + "<text x=\"0\" y=\"12\" font-size=\"2\">\(words)</text></svg>").utf8)
    }

    /// A 15000 × 15000 grayscale PNG, all black (1.4 MB of deflate), as a `data:` image (1.9 GB
    /// before the limits).
    static func embeddedPNG(side: Int = 15000) -> [UInt8] {
        let png = blackPNG(width: side, height: side)
        return Array((header + "<image width=\"24\" height=\"24\" href=\"data:image/png;base64,"
                      + Data(png).base64EncodedString() + "\"/></svg>").utf8)
    }

    /// A decodable 8-bit grayscale PNG of zeros: one fixed-Huffman deflate block of
    /// <length 258, distance 1> copies, so a huge image stays a small file.
    static func blackPNG(width: Int, height: Int) -> [UInt8] {
        let raw = height * (width + 1)  // a filter byte and the samples of each row, all zero
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman
        bits.writeCode(0x30, length: 8)  // literal 0
        var left = raw - 1
        // Length symbol 285 (258 bytes, code 11000101) then distance symbol 0 (1 byte back, 00000).
        let copy = BitWriter.reversed(0b1100_0101, length: 8)
        while left >= 258 {
            bits.write(copy, count: 13)
            left -= 258
        }
        for _ in 0..<left { bits.writeCode(0x30, length: 8) }
        bits.writeCode(0, length: 7)  // end of block
        // Adler-32 of `raw` zeros: a = 1, b = raw mod 65521.
        let adler = UInt32(raw % 65521) << 16 | 1
        var zlib: [UInt8] = [0x78, 0x01] + bits.finished
        zlib += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        var ihdr = be32(UInt32(width)) + be32(UInt32(height))
        ihdr += [8, 0, 0, 0, 0]  // 8-bit grayscale, deflate, adaptive filtering, no interlace
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }

    /// Deflate's bit order: fields least significant bit first, Huffman codes most significant first.
    struct BitWriter {
        private(set) var bytes: [UInt8] = []
        private var current: UInt64 = 0, used: UInt64 = 0

        mutating func write(_ value: UInt32, count: Int) {
            current |= UInt64(value) << used
            used += UInt64(count)
            while used >= 8 { bytes.append(UInt8(current & 0xFF)); current >>= 8; used -= 8 }
        }

        mutating func writeCode(_ code: UInt32, length: Int) { write(BitWriter.reversed(code, length: length), count: length) }

        static func reversed(_ code: UInt32, length: Int) -> UInt32 {
            var r: UInt32 = 0
            for i in 0..<length { r |= (code >> UInt32(i) & 1) << UInt32(length - 1 - i) }
            return r
        }

        /// The bytes with the last partial byte flushed.
        var finished: [UInt8] { used == 0 ? bytes : bytes + [UInt8(current & 0xFF)] }
    }
}
