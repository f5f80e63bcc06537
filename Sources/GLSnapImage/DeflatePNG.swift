import CDeflate

/// A PNG writer for the fast presets: rows unfiltered, the whole image compressed in one call by
/// libdeflate, which is several times faster than zlib at its low levels and compresses as well.
/// (libpng stays the writer for filtered output and for images streamed band by band.)
enum DeflatePNG {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// `level` is libdeflate's (1...12).
    static func encode(_ image: RGBAImage, level: Int) throws -> [UInt8] {
        let rowBytes = image.width * 4
        let rawCount = (rowBytes + 1) * image.height
        guard let compressor = libdeflate_alloc_compressor(Int32(max(1, min(12, level)))) else {
            throw ImageError.pngEncode(call: "libdeflate_alloc_compressor", message: "out of memory")
        }
        defer { libdeflate_free_compressor(compressor) }
        // Each row is prefixed with its filter type, 0 (none). Every byte is written below, so the
        // buffer is not zeroed first.
        let raw = [UInt8](unsafeUninitializedCapacity: rawCount) { dst, count in
            image.pixels.withUnsafeBufferPointer { src in
                for y in 0..<image.height {
                    let row = dst.baseAddress! + y * (rowBytes + 1)
                    row.initialize(to: 0)
                    (row + 1).initialize(from: src.baseAddress! + y * rowBytes, count: rowBytes)
                }
            }
            count = rawCount
        }
        let bound = libdeflate_zlib_compress_bound(compressor, rawCount)
        var out = [UInt8]()
        out.reserveCapacity(bound + 64)
        out += signature
        var header = [UInt8]()
        header += bigEndian(UInt32(image.width))
        header += bigEndian(UInt32(image.height))
        header += [8, 6, 0, 0, 0] // 8 bits, RGBA, deflate, adaptive filtering (type 0 used), no interlace
        appendChunk(&out, "IHDR", header)
        var n = 0
        let compressed = [UInt8](unsafeUninitializedCapacity: bound) { dst, count in
            n = raw.withUnsafeBytes { src in
                libdeflate_zlib_compress(compressor, src.baseAddress, src.count, dst.baseAddress, dst.count)
            }
            count = n
        }
        guard n > 0 else { throw ImageError.pngEncode(call: "libdeflate_zlib_compress", message: "output did not fit its bound") }
        // IDAT chunks of at most 2^31-1 bytes each.
        var start = 0
        let maxChunk = Int(Int32.max)
        repeat {
            let end = min(n, start + maxChunk)
            appendChunk(&out, "IDAT", compressed[start..<end])
            start = end
        } while start < n
        appendChunk(&out, "IEND", [])
        return out
    }

    private static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    private static func appendChunk<C: Collection>(_ out: inout [UInt8], _ type: String, _ data: C) where C.Element == UInt8 {
        out += bigEndian(UInt32(data.count))
        let start = out.count
        out += Array(type.utf8)
        out.append(contentsOf: data)
        let crc = out.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress! + start, $0.count - start) }
        out += bigEndian(crc)
    }
}
