import XCTest
import CZlib
@testable import GLSnapData

final class InflateTests: XCTestCase {
    /// Compresses with zlib's deflate: windowBits 15 gives zlib framing, 31 gives gzip.
    private func deflate(_ input: [UInt8], windowBits: Int32) -> [UInt8] {
        var stream = z_stream()
        XCTAssertEqual(deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY,
                                     ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)), Z_OK)
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 32)
        var source = input
        let produced = source.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf -> Int in
                stream.next_in = inBuf.baseAddress
                stream.avail_in = UInt32(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = UInt32(outBuf.count)
                XCTAssertEqual(CZlib.deflate(&stream, Z_FINISH), Z_STREAM_END)
                return outBuf.count - Int(stream.avail_out)
            }
        }
        return Array(output[0..<produced])
    }

    private func fixture(_ name: String) throws -> [UInt8] {
        try readBytes(try sharedDirectory("mvt-fixtures/fixtures/\(name)").appendingPathComponent("tile.mvt"))
    }

    func testGzipAndZlibRoundTrip() throws {
        let raw = try fixture("064")
        for bits: Int32 in [15, 31] {
            let packed = deflate(raw, windowBits: bits)
            XCTAssertTrue(Inflate.isCompressed(packed), "window bits \(bits)")
            XCTAssertEqual(try Inflate.inflate(packed), raw)
        }
        XCTAssertFalse(Inflate.isCompressed(raw))
        XCTAssertEqual(Array(deflate(raw, windowBits: 31).prefix(2)), [0x1f, 0x8b])
    }

    func testCompressedTileDecodesTransparently() throws {
        let raw = try fixture("038")
        let plain = try VectorTile.decode(raw)
        let gzipped = try VectorTile.decode(deflate(raw, windowBits: 31))
        XCTAssertEqual(gzipped.layers["hello"]?.features.first?.properties,
                       plain.layers["hello"]?.features.first?.properties)
        XCTAssertEqual(gzipped.layers["hello"]?.features.first?.properties.count, 7)
    }

    func testOutputLimit() {
        let big = [UInt8](repeating: 7, count: 1 << 20)
        let packed = deflate(big, windowBits: 31)
        XCTAssertEqual(try Inflate.inflate(packed, limit: 1 << 20), big)
        XCTAssertThrowsError(try Inflate.inflate(packed, limit: 1000)) {
            XCTAssertEqual($0 as? TileDecodeError, .inflatedTooLarge(limit: 1000))
            XCTAssertEqual("\($0)", "compressed tile inflates to more than 1000 bytes, the decoder's limit")
        }
    }

    func testTruncatedAndCorrupt() throws {
        let packed = deflate(try fixture("064"), windowBits: 31)
        XCTAssertThrowsError(try Inflate.inflate(Array(packed.prefix(packed.count / 2)))) { error in
            guard case .inflateFailed(let call, _, let message)? = error as? TileDecodeError else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(call, "inflate")
            XCTAssertEqual(message, "the compressed data is truncated")
        }
        var corrupt = packed
        for i in 10..<corrupt.count { corrupt[i] = 0xff }
        XCTAssertThrowsError(try Inflate.inflate(corrupt)) { error in
            guard case .inflateFailed? = error as? TileDecodeError else { return XCTFail("unexpected \(error)") }
        }
        XCTAssertThrowsError(try VectorTile.decode([0x1f, 0x8b])) { error in
            guard case .inflateFailed? = error as? TileDecodeError else { return XCTFail("unexpected \(error)") }
        }
    }
}
