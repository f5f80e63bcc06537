import CISAL

/// A PNG writer for the throughput presets (levels 1 and 2, no filter): the whole image
/// compressed in one call by Intel ISA-L's igzip. At @2x on the bright-v9 benchmark cameras it
/// takes about 2 ms per image where libdeflate's fastest level took 6 ms and zlib's more, for
/// output of about the same size (see README, "PNG encoding").
/// An image whose every pixel is opaque (a map over an opaque background) is written as RGB,
/// which the compressor reads a quarter less of: less time and 6-7% fewer bytes. Decoders return
/// the same pixels either way.
/// (libpng stays the writer for filtered output and for images streamed band by band.)
enum FastPNG {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The largest scanline data one igzip call takes (its counters are 32-bit).
    static let maxInput = Int(UInt32.max) - (1 << 20)

    /// Whether `image` fits this writer; larger images go through libpng.
    static func accepts(_ image: RGBAImage) -> Bool {
        (image.width * 4 + 1) * image.height <= maxInput
    }

    /// `level` is igzip's (1 or 2).
    static func encode(_ image: RGBAImage, level: Int) throws -> [UInt8] {
        let level = max(1, min(2, level))
        // One pass packs RGB and checks the alpha bytes on the way; at the first row with a pixel
        // that is not opaque it stops and the image is written as RGBA.
        let packed = opaqueScanlines(image)
        let opaque = packed != nil
        var raw = packed ?? scanlines(image, rgb: false)
        // Huffman-coded literals take at most 9 bits per byte; blocks and the zlib wrapper add a
        // little more.
        let bound = raw.count + raw.count / 7 + 4096
        // Signature, IHDR (25 bytes), IDAT header and the compressed stream (IDAT's length and CRC
        // are written once its size is known), IEND (12 bytes).
        let headerCount = signature.count + 25 + 8
        let scratchSize = Int(glsnap_isal_level_buf_size(Int32(level)))
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: scratchSize)
        defer { scratch.deallocate() }
        var status = COMP_OK
        var n = 0
        var out = [UInt8](unsafeUninitializedCapacity: headerCount + bound + 4 + 12) { dst, count in
            var ihdr = [UInt8]()
            ihdr += bigEndian(UInt32(image.width))
            ihdr += bigEndian(UInt32(image.height))
            // 8 bits, RGB (2) or RGBA (6), deflate, adaptive filtering (type 0 used), no interlace.
            ihdr += [8, opaque ? 2 : 6, 0, 0, 0]
            var header = signature
            appendChunk(&header, "IHDR", ihdr)
            header += [0, 0, 0, 0] + Array("IDAT".utf8)
            _ = dst.initialize(from: header)
            raw.withUnsafeMutableBytes { src in
                var stream = isal_zstream()
                isal_deflate_stateless_init(&stream)
                stream.level = UInt32(level)
                stream.level_buf = scratch
                stream.level_buf_size = UInt32(scratchSize)
                stream.gzip_flag = UInt16(IGZIP_ZLIB)
                stream.end_of_stream = 1
                stream.flush = UInt16(NO_FLUSH)
                stream.next_in = src.baseAddress!.assumingMemoryBound(to: UInt8.self)
                stream.avail_in = UInt32(src.count)
                stream.next_out = dst.baseAddress! + headerCount
                stream.avail_out = UInt32(bound)
                status = isal_deflate_stateless(&stream)
                n = Int(stream.total_out)
            }
            count = status == COMP_OK ? headerCount + n : 0
        }
        guard status == COMP_OK else {
            throw ImageError.pngEncode(call: "isal_deflate_stateless", message: "returned \(status)")
        }
        guard n <= Int(Int32.max) else {
            // Chunks hold at most 2^31-1 bytes: spread a stream this large over several IDATs.
            return splitIDAT(header: Array(out[0..<(headerCount - 8)]), stream: out[headerCount...])
        }
        out.withUnsafeMutableBytes { b in
            let lengthAt = headerCount - 8
            for (i, byte) in bigEndian(UInt32(n)).enumerated() { b[lengthAt + i] = byte }
        }
        let crc = out.withUnsafeBytes { crc32(0, $0.baseAddress! + headerCount - 4, n + 4) }
        out += bigEndian(crc)
        appendChunk(&out, "IEND", [])
        return out
    }

    /// The CRC-32 PNG chunks carry (the same as gzip's).
    static func crc32(_ initial: UInt32, _ bytes: UnsafeRawPointer, _ count: Int) -> UInt32 {
        crc32_gzip_refl(initial, bytes.assumingMemoryBound(to: UInt8.self), UInt64(count))
    }

    /// The RGB scanlines of `image` (as `scanlines(image, rgb: true)`) when every pixel is opaque,
    /// else nil, found in the same pass: the alpha bytes of each row are checked as it is packed.
    static func opaqueScanlines(_ image: RGBAImage) -> [UInt8]? {
        let width = image.width, height = image.height
        let rowBytes = width * 3 + 1
        let count = rowBytes * height
        var opaque = true
        // One spare byte, as in `scanlines`.
        var raw = [UInt8](unsafeUninitializedCapacity: count + 1) { dst, initialized in
            image.pixels.withUnsafeBytes { src in
                let out = UnsafeMutableRawPointer(dst.baseAddress!)
                let alpha: UInt64 = 0xFF00_0000_FF00_0000
                for y in 0..<height {
                    let row = out + y * rowBytes
                    let source = src.baseAddress! + y * width * 4
                    var all = alpha
                    var x = 0
                    while x + 4 <= width {
                        let a = source.loadUnaligned(fromByteOffset: x * 4, as: UInt64.self)
                        let b = source.loadUnaligned(fromByteOffset: x * 4 + 8, as: UInt64.self)
                        all &= a & b
                        let low = (a & 0xFF_FFFF) | (a >> 32 & 0xFF_FFFF) << 24 | (b & 0xFFFF) << 48
                        let high = UInt32(truncatingIfNeeded: (b >> 16 & 0xFF) | (b >> 32 & 0xFF_FFFF) << 8)
                        (row + 1).storeBytes(of: low.littleEndian, toByteOffset: x * 3, as: UInt64.self)
                        (row + 1).storeBytes(of: high.littleEndian, toByteOffset: x * 3 + 8, as: UInt32.self)
                        x += 4
                    }
                    var tail = true
                    while x < width {
                        let pixel = source.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                        tail = tail && pixel >> 24 == 0xFF
                        (row + 1).storeBytes(of: pixel, toByteOffset: x * 3, as: UInt32.self)
                        x += 1
                    }
                    row.storeBytes(of: 0, as: UInt8.self)
                    guard all == alpha, tail else {
                        opaque = false
                        break
                    }
                }
                out.storeBytes(of: 0, toByteOffset: count, as: UInt8.self)
            }
            // Every byte is written when the image is opaque; else nothing is kept.
            initialized = opaque ? count + 1 : 0
        }
        guard opaque else { return nil }
        raw.removeLast()
        return raw
    }

    /// The PNG scanlines: each row prefixed with its filter type, 0 (none), then RGBA or, with
    /// `rgb`, RGB. Every byte is written, so the buffer is not zeroed first.
    static func scanlines(_ image: RGBAImage, rgb: Bool) -> [UInt8] {
        let width = image.width, height = image.height
        let rowBytes = width * (rgb ? 3 : 4) + 1
        let count = rowBytes * height
        // One spare byte: the RGB packing stores four bytes per pixel, the last one past the row
        // (it lands on the next row's filter byte, written after it, or on the spare byte).
        var raw = [UInt8](unsafeUninitializedCapacity: count + 1) { dst, initialized in
            image.pixels.withUnsafeBytes { src in
                let out = UnsafeMutableRawPointer(dst.baseAddress!)
                for y in 0..<height {
                    let row = out + y * rowBytes
                    let source = src.baseAddress! + y * width * 4
                    if rgb {
                        // Four pixels (16 bytes in) make 12 bytes out: one 8-byte and one 4-byte store.
                        var x = 0
                        while x + 4 <= width {
                            let a = source.loadUnaligned(fromByteOffset: x * 4, as: UInt64.self)
                            let b = source.loadUnaligned(fromByteOffset: x * 4 + 8, as: UInt64.self)
                            let low = (a & 0xFF_FFFF) | (a >> 32 & 0xFF_FFFF) << 24 | (b & 0xFFFF) << 48
                            let high = UInt32(truncatingIfNeeded: (b >> 16 & 0xFF) | (b >> 32 & 0xFF_FFFF) << 8)
                            (row + 1).storeBytes(of: low.littleEndian, toByteOffset: x * 3, as: UInt64.self)
                            (row + 1).storeBytes(of: high.littleEndian, toByteOffset: x * 3 + 8, as: UInt32.self)
                            x += 4
                        }
                        while x < width {
                            let pixel = source.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                            (row + 1).storeBytes(of: pixel, toByteOffset: x * 3, as: UInt32.self)
                            x += 1
                        }
                    } else {
                        (row + 1).copyMemory(from: source, byteCount: width * 4)
                    }
                    row.storeBytes(of: 0, as: UInt8.self)
                }
                out.storeBytes(of: 0, toByteOffset: count, as: UInt8.self)
            }
            initialized = count + 1
        }
        raw.removeLast()
        return raw
    }

    private static func splitIDAT(header: [UInt8], stream: ArraySlice<UInt8>) -> [UInt8] {
        var out = header
        let maxChunk = Int(Int32.max)
        var start = stream.startIndex
        repeat {
            let end = min(stream.endIndex, start + maxChunk)
            appendChunk(&out, "IDAT", stream[start..<end])
            start = end
        } while start < stream.endIndex
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
        let crc = out.withUnsafeBytes { crc32(0, $0.baseAddress! + start, $0.count - start) }
        out += bigEndian(crc)
    }
}
