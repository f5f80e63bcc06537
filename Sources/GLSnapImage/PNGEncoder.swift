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
        /// Throughput first (renders served on the fly): level 1, no filter. Measured on rendered
        /// maps (512x512, 800x600): 4-7x faster than `.standard` for 1.0-1.2x the bytes; at level 1
        /// the `sub`/`up` filters made map images larger and slower (flat fills compress as repeats).
        public static let fast = Options(compressionLevel: 1, filter: .none)
    }

    public var options: Options

    public init(options: Options = .standard) { self.options = options }

    /// libpng's own ceiling on width and height (PNG_UINT_31_MAX would overflow row sizes here).
    static let maxDimension = 1 << 24

    /// Returns the PNG file bytes of `image`.
    public func encode(_ image: RGBAImage) throws -> [UInt8] {
        guard image.width <= Self.maxDimension, image.height <= Self.maxDimension else {
            throw ImageError.pngEncode(call: "png_set_IHDR",
                                       message: "\(image.width)x\(image.height) is larger than \(Self.maxDimension) per side")
        }
        guard let png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nil, pngEncodeError, pngEncodeWarning) else {
            throw ImageError.pngEncode(call: "png_create_write_struct", message: "out of memory or libpng version mismatch")
        }
        var info = png_create_info_struct(png)
        guard info != nil else {
            var p: png_structp? = png
            png_destroy_write_struct(&p, nil)
            throw ImageError.pngEncode(call: "png_create_info_struct", message: "out of memory")
        }
        var pngOpt: png_structp? = png
        defer { png_destroy_write_struct(&pngOpt, &info) }

        let sink = PNGMemorySink()
        // A compressed PNG is rarely larger than a quarter of the raw size; grow from there.
        sink.bytes.reserveCapacity(image.pixels.count / 4 + 1024)
        let unmanaged = Unmanaged.passUnretained(sink)
        png_set_write_fn(png, unmanaged.toOpaque(), pngMemoryWrite, nil)
        png_set_user_limits(png, UInt32(Self.maxDimension), UInt32(Self.maxDimension))
        png_set_compression_level(png, Int32(options.compressionLevel))
        png_set_filter(png, 0, options.filter.libpngMask)
        // Bigger IDAT chunks: fewer callbacks and CRCs per image.
        png_set_compression_buffer_size(png, 1 << 16)
        png_set_IHDR(png, info, UInt32(image.width), UInt32(image.height), 8, PNG_COLOR_TYPE_RGB_ALPHA,
                     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT)
        png_write_info(png, info)
        let rowBytes = image.width * 4
        image.pixels.withUnsafeBufferPointer { px in
            guard let base = px.baseAddress else { return }
            for y in 0..<image.height {
                png_write_row(png, base + y * rowBytes)
            }
        }
        png_write_end(png, nil)
        withExtendedLifetime(sink) {}
        return sink.bytes
    }
}

/// The growing output buffer the write callback appends to.
final class PNGMemorySink {
    var bytes: [UInt8] = []
}

private func pngMemoryWrite(_ png: png_structp?, _ data: png_bytep?, _ count: Int) {
    guard let io = png_get_io_ptr(png), let data else { return }
    let sink = Unmanaged<PNGMemorySink>.fromOpaque(io).takeUnretainedValue()
    sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
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
