/// Hand-built PNG files for decoder tests: chunks with CRC-32 and zlib "stored" blocks, so the
/// fixtures do not come from the encoder under test.
enum HandPNG {
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    /// A zlib stream of one stored block (data must be under 65536 bytes).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        let len = UInt16(data.count)
        return [0x78, 0x01, 0x01, UInt8(len & 0xFF), UInt8(len >> 8), UInt8(~len & 0xFF), UInt8(~len >> 8)]
            + data + be32((b << 16) | a)
    }

    /// A PNG with the given IHDR fields, extra chunks before IDAT, and unfiltered rows.
    static func file(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8,
                     extra: [UInt8] = [], rows: [[UInt8]]) -> [UInt8] {
        let ihdr = be32(UInt32(width)) + be32(UInt32(height)) + [bitDepth, colorType, 0, 0, 0]
        let raw: [UInt8] = rows.flatMap { [UInt8(0)] + $0 }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + extra
            + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
    }
}
