import CPNG
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Encodes an `RGBAImage` as an 8-bit RGBA PNG in memory.
///
/// Why the low-level libpng API: the simplified API (`png_image_write_to_memory`) reports errors
/// without `longjmp` but offers only two settings (default, or `PNG_IMAGE_FLAG_FAST` = level 3,
/// no filter); the compression level and filter choice need `png_create_write_struct`. That API
/// calls `longjmp` on error, which Swift cannot catch. Its error paths on this route are only
/// (a) parameters libpng refuses, which `encode` validates before calling (size, level, filter),
/// and (b) memory exhaustion, which ends a Swift process anyway. The error callback prints
/// libpng's message to stderr before libpng aborts, so such a failure is still diagnosable.
/// Memory output uses a write callback into a Swift array; no temporary files.
public struct PNGEncoder: Sendable {
    /// Which PNG row filters libpng may choose from (it picks per row with a heuristic).
    public enum Filter: Sendable, CaseIterable {
        case none, sub, up, average, paeth, all

        var libpngMask: Int32 {
            switch self {
            case .none: return Int32(PNG_FILTER_NONE)
            case .sub: return Int32(PNG_FILTER_SUB)
            case .up: return Int32(PNG_FILTER_UP)
            case .average: return Int32(PNG_FILTER_AVG)
            case .paeth: return Int32(PNG_FILTER_PAETH)
            case .all:
                return Int32(PNG_FILTER_NONE | PNG_FILTER_SUB | PNG_FILTER_UP | PNG_FILTER_AVG | PNG_FILTER_PAETH)
            }
        }
    }

    /// Encoder settings. Construction refuses out-of-range values.
    public struct Options: Equatable, Sendable {
        /// zlib level 0 (store) ... 9 (smallest). Default 6.
        public let compressionLevel: Int
        /// Default `.all` (libpng's adaptive choice, the smallest files).
        public let filter: Filter

        public init(compressionLevel: Int = 6, filter: Filter = .all) {
            precondition((0...9).contains(compressionLevel), "PNG compression level must be 0...9")
            self.compressionLevel = compressionLevel; self.filter = filter
        }

        /// Smallest files for distribution: level 6, adaptive filters (libpng's defaults).
        public static let standard = Options()
        /// Throughput first (renders served on the fly): level 1, no filter, through ISA-L's igzip
        /// (`FastPNG`). On the bright-v9 benchmark cameras at @2x: about 2 ms of compression per
        /// image against 6 ms for libdeflate level 1 and more for zlib, at about the same size; at
        /// level 1 the `sub`/`up` filters made map images larger and slower (flat fills compress as
        /// repeats).
        public static let fast = Options(compressionLevel: 1, filter: .none)
    }

    public var options: Options

    public init(options: Options = .standard) { self.options = options }

    /// libpng's own ceiling on width and height (PNG_UINT_31_MAX would overflow row sizes here).
    static let maxDimension = 1 << 24

    /// Returns the PNG file bytes of `image`. Unfiltered output at levels 1 and 2 (the fast
    /// preset) goes through ISA-L's igzip (`FastPNG`), and is RGB when the image is opaque;
    /// everything else through libpng.
    public func encode(_ image: RGBAImage) throws -> [UInt8] {
        if options.filter == .none, (1...2).contains(options.compressionLevel), FastPNG.accepts(image) {
            return try FastPNG.encode(image, level: options.compressionLevel)
        }
        let sink = PNGMemorySink()
        // A compressed PNG is rarely larger than a quarter of the raw size; grow from there.
        sink.bytes.reserveCapacity(image.pixels.count / 4 + 1024)
        let writer = try PNGRowWriter(width: image.width, height: image.height, options: options) { chunk in
            sink.bytes.append(contentsOf: chunk)
        }
        image.pixels.withUnsafeBytes { writer.write(rows: $0, count: image.height) }
        writer.finish()
        return sink.bytes
    }
}

/// Writes a PNG row band by row band, so an image far larger than memory can be encoded as it is
/// read back: the caller hands rows (straight RGBA, top first) and gets compressed bytes through
/// `output` as libpng produces them.
public final class PNGRowWriter {
    public let width: Int
    public let height: Int
    private var png: png_structp?
    private var info: png_infop?
    private var rowsWritten = 0
    private var finished = false
    private let output: PNGCallbackSink

    public init(width: Int, height: Int, options: PNGEncoder.Options = .standard,
                output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) throws {
        guard width > 0, height > 0, width <= PNGEncoder.maxDimension, height <= PNGEncoder.maxDimension else {
            throw ImageError.pngEncode(call: "png_set_IHDR",
                                       message: "\(width)x\(height) is outside 1...\(PNGEncoder.maxDimension) per side")
        }
        self.width = width
        self.height = height
        self.output = PNGCallbackSink(output)
        guard let png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nil, pngEncodeError, pngEncodeWarning) else {
            throw ImageError.pngEncode(call: "png_create_write_struct", message: "out of memory or libpng version mismatch")
        }
        self.png = png
        info = png_create_info_struct(png)
        guard info != nil else {
            png_destroy_write_struct(&self.png, nil)
            throw ImageError.pngEncode(call: "png_create_info_struct", message: "out of memory")
        }
        png_set_write_fn(png, Unmanaged.passUnretained(self.output).toOpaque(), pngCallbackWrite, nil)
        png_set_user_limits(png, UInt32(PNGEncoder.maxDimension), UInt32(PNGEncoder.maxDimension))
        png_set_compression_level(png, Int32(options.compressionLevel))
        png_set_filter(png, 0, options.filter.libpngMask)
        // Bigger IDAT chunks: fewer callbacks and CRCs per image.
        png_set_compression_buffer_size(png, 1 << 16)
        png_set_IHDR(png, info, UInt32(width), UInt32(height), 8, PNG_COLOR_TYPE_RGB_ALPHA,
                     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT)
        png_write_info(png, info)
    }

    deinit {
        png_destroy_write_struct(&png, &info)
    }

    /// Appends `count` rows of `width * 4` bytes each.
    public func write(rows: UnsafeRawBufferPointer, count: Int) {
        precondition(!finished && rowsWritten + count <= height, "more rows than the image has")
        precondition(rows.count >= count * width * 4, "row buffer smaller than \(count) rows")
        guard let base = rows.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        for y in 0..<count {
            png_write_row(png, base + y * width * 4)
        }
        rowsWritten += count
    }

    /// Ends the file once every row is written.
    public func finish() {
        precondition(rowsWritten == height, "\(rowsWritten) of \(height) rows written")
        guard !finished else { return }
        png_write_end(png, nil)
        finished = true
    }
}

final class PNGCallbackSink {
    let body: (UnsafeBufferPointer<UInt8>) -> Void
    init(_ body: @escaping (UnsafeBufferPointer<UInt8>) -> Void) { self.body = body }
}

private func pngCallbackWrite(_ png: png_structp?, _ data: png_bytep?, _ count: Int) {
    guard let io = png_get_io_ptr(png), let data else { return }
    Unmanaged<PNGCallbackSink>.fromOpaque(io).takeUnretainedValue().body(UnsafeBufferPointer(start: data, count: count))
}

/// The growing output buffer the write callback appends to.
final class PNGMemorySink {
    var bytes: [UInt8] = []
}

/// Reached only for refused parameters (validated beforehand) or memory exhaustion; libpng
/// aborts after this returns, so say why first.
private func pngEncodeError(_ png: png_structp?, _ message: png_const_charp?) {
    let text = message.map { String(cString: $0) } ?? "unknown error"
    fputsStderr("glsnap: libpng write error (aborting): \(text)\n")
}

private func pngEncodeWarning(_ png: png_structp?, _ message: png_const_charp?) {}

private func fputsStderr(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBytes { raw in
        _ = write(2, raw.baseAddress, raw.count)
    }
}
