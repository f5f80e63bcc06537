import CZlib

/// gzip and zlib decompression through zlib, with an output-size limit.
public enum Inflate {
    /// True when `bytes` start with a gzip header (1f 8b) or a zlib header (CMF 0x78 with a
    /// valid FCHECK). An uncompressed vector tile starts with 0x1a (field 3, length-delimited),
    /// so neither header is ambiguous with one.
    public static func isCompressed(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2 else { return false }
        if bytes[0] == 0x1f && bytes[1] == 0x8b { return true }
        // zlib: deflate method (8), window <= 32K, and (CMF * 256 + FLG) divisible by 31.
        return bytes[0] & 0x0f == 8 && bytes[0] >> 4 <= 7 && (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0
    }

    /// Inflates gzip or zlib data (auto-detected from the header).
    /// Throws `TileDecodeError.inflatedTooLarge` past `limit` output bytes and
    /// `TileDecodeError.inflateFailed` for corrupt or truncated data.
    public static func inflate(_ bytes: [UInt8], limit: Int = DataLimits.maxInflatedBytes) throws -> [UInt8] {
        precondition(limit > 0, "inflate limit must be positive")
        var stream = z_stream()
        // 15 window bits + 32: detect gzip or zlib from the header.
        var status = inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            throw TileDecodeError.inflateFailed(call: "inflateInit2", code: status, message: message(stream))
        }
        defer { inflateEnd(&stream) }

        var output: [UInt8] = []
        output.reserveCapacity(min(limit, max(4096, bytes.count * 4)))
        let chunkSize = 64 << 10
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var input = bytes
        let inputCount = input.count
        status = try input.withUnsafeMutableBufferPointer { inBuf -> Int32 in
            stream.next_in = inBuf.baseAddress
            stream.avail_in = UInt32(inputCount)
            var status = Z_OK
            repeat {
                let produced = chunk.withUnsafeMutableBufferPointer { outBuf -> Int in
                    stream.next_out = outBuf.baseAddress
                    stream.avail_out = UInt32(chunkSize)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return chunkSize - Int(stream.avail_out)
                }
                if status != Z_OK && status != Z_STREAM_END {
                    let code = status == Z_BUF_ERROR ? Z_DATA_ERROR : status
                    let text = status == Z_BUF_ERROR ? "the compressed data is truncated" : message(stream)
                    throw TileDecodeError.inflateFailed(call: "inflate", code: code, message: text)
                }
                guard output.count + produced <= limit else { throw TileDecodeError.inflatedTooLarge(limit: limit) }
                output.append(contentsOf: chunk[0..<produced])
                if status == Z_OK && produced == 0 && stream.avail_in == 0 {
                    throw TileDecodeError.inflateFailed(call: "inflate", code: Z_DATA_ERROR,
                                                        message: "the compressed data is truncated")
                }
            } while status != Z_STREAM_END
            return status
        }
        return output
    }

    private static func message(_ stream: z_stream) -> String {
        guard let msg = stream.msg else { return "no message" }
        return String(cString: msg)
    }
}
