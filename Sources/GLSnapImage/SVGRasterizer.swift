import CRsvg
import Foundation

/// Rasterizes SVG documents with librsvg, optionally replacing color parameters first.
public struct SVGRasterizer: Sendable {
    /// Limits on what an SVG may ask for. Every document is scanned against them before librsvg
    /// parses it (see `SVGPrescan`), so a hostile icon is refused in time and memory proportional
    /// to its bytes; a refusal is `ImageError.svgRefused`, whatever the scale.
    public struct Limits: Sendable, Equatable {
        /// The most bytes of SVG text accepted (default 4 MiB).
        public var maxSVGBytes: Int
        /// The most pixels per side of a raster (default 4096).
        public var maxDimension: Int
        /// The most bytes that references to the DOCTYPE's entities may expand to, nested ones
        /// included (default 1 MiB). librsvg expands entities itself, past libxml2's amplification
        /// check: one entity used 30 000 times took 13.5 GB. Real icons use a few short ones.
        public var maxEntityExpansionBytes: Int
        /// The most elements, after entity expansion, nested SVG images included (default 20 000;
        /// librsvg's own cap is 1 000 000, far beyond what an icon needs).
        public var maxElements: Int
        /// The most characters inside `<text>`, `<tspan>` and `<textPath>` (default 1000): librsvg's
        /// text layout took 18 s for 10 000, at every scale.
        public var maxTextCharacters: Int
        /// The most pixels of all `data:` images together, read from their headers (default
        /// 2048 × 2048): each is decoded whole, twice over (a 15000² PNG took 1.9 GB).
        public var maxEmbeddedImagePixels: Int
        /// The most elements (as drawn, `<use>` repeats included) times raster pixels (default
        /// 4·10⁹): an element may cover the whole raster, and librsvg took 3.5 s for 20 000
        /// translucent paths at 480 × 480 pixels. Depends on the scale, so a smaller one may pass.
        public var maxElementPixels: Int
        /// The longest one parse and rasterization may take, in seconds (default 2). librsvg cannot
        /// be interrupted, so this is checked afterwards: an icon over it is refused then, and the
        /// caller skips it at its other scales.
        public var maxRasterizeSeconds: Double

        public init(maxSVGBytes: Int = 4 << 20, maxDimension: Int = 4096, maxEntityExpansionBytes: Int = 1 << 20,
                    maxElements: Int = 20_000, maxTextCharacters: Int = 1000, maxEmbeddedImagePixels: Int = 2048 * 2048,
                    maxElementPixels: Int = 4_000_000_000, maxRasterizeSeconds: Double = 2) {
            self.maxSVGBytes = maxSVGBytes; self.maxDimension = maxDimension
            self.maxEntityExpansionBytes = maxEntityExpansionBytes; self.maxElements = maxElements
            self.maxTextCharacters = maxTextCharacters; self.maxEmbeddedImagePixels = maxEmbeddedImagePixels
            self.maxElementPixels = maxElementPixels; self.maxRasterizeSeconds = maxRasterizeSeconds
        }
    }

    /// An feMorphology costs librsvg about this many plain fills per pixel of its kernel's width
    /// plus height (calibrated on radius 400 at 384 pixels: 2.4 s).
    static let passesPerMorphologyPixel = 14.0

    public var limits: Limits
    public init(limits: Limits = Limits()) { self.limits = limits }

    /// The SVG's intrinsic size in CSS pixels.
    public func size(of svg: [UInt8], name: String) throws -> (width: Double, height: Double) {
        let (handle, _) = try open(svg, name: name)
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
        return try intrinsicSize(handle, name: name)
    }

    /// Renders `svg` at `scale` device pixels per CSS pixel into a straight-alpha image of
    /// ceil(width·scale) × ceil(height·scale) pixels.
    /// Throws `ImageError.svgRefused` when the document breaks `limits` (at any scale) or took
    /// longer than `limits.maxRasterizeSeconds`, and `ImageError.svg` for anything else.
    public func rasterize(_ svg: [UInt8], name: String, scale: Double) throws -> RGBAImage {
        let start = ContinuousClock.now
        let image = try render(svg, name: name, scale: scale)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        guard seconds <= limits.maxRasterizeSeconds else {
            throw ImageError.svgRefused(name: name, reason: "rasterizing it took \((seconds * 10).rounded() / 10) s, over the \(limits.maxRasterizeSeconds) s limit")
        }
        return image
    }

    private func render(_ svg: [UInt8], name: String, scale: Double) throws -> RGBAImage {
        let (handle, totals) = try open(svg, name: name)
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
        let (w, h) = try intrinsicSize(handle, name: name)
        guard scale > 0, scale.isFinite else { throw ImageError.svg(name: name, reason: "the scale \(scale) is not positive") }
        let pw = (w * scale).rounded(.up), ph = (h * scale).rounded(.up)
        guard pw >= 1, ph >= 1, pw <= Double(limits.maxDimension), ph <= Double(limits.maxDimension) else {
            throw ImageError.svg(name: name, reason: "a raster of \(Int(min(pw, 1e9)))x\(Int(min(ph, 1e9))) pixels is outside 1...\(limits.maxDimension) pixels per side")
        }
        let width = Int(pw), height = Int(ph)
        // Passes over the pixels: one an element, and for each feMorphology its kernel's width and
        // height (clipped to the raster, as librsvg clips it to the filter region) times
        // `passesPerMorphologyPixel`. Measured: radius 400 at 96, 192, 384 pixels took 0.3, 0.9, 2.4 s.
        let unit = scale * pixelsPerUnit(handle, width: w)
        let passes = totals.morphologyRadii.reduce(Double(totals.instances)) {
            $0 + SVGRasterizer.passesPerMorphologyPixel * (min(2 * $1.x * unit + 1, Double(2 * width)) + min(2 * $1.y * unit + 1, Double(2 * height)))
        }
        guard passes * Double(width * height) <= Double(limits.maxElementPixels) else {
            throw ImageError.svg(name: name, reason: "drawing \(Int(min(passes, 1e15))) element passes (filter kernels included) on \(width)x\(height) pixels is over the limit of \(limits.maxElementPixels) element-pixels")
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw ImageError.svg(name: name, reason: "cairo_image_surface_create failed")
        }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { throw ImageError.svg(name: name, reason: "cairo_create failed") }
        defer { cairo_destroy(cr) }
        var viewport = RsvgRectangle(x: 0, y: 0, width: w * scale, height: h * scale)
        var error: UnsafeMutablePointer<GError>?
        guard rsvg_handle_render_document(handle, cr, &viewport, &error) != 0 else {
            throw ImageError.svg(name: name, reason: "rsvg_handle_render_document failed: \(SVGRasterizer.message(error))")
        }
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { throw ImageError.svg(name: name, reason: "no surface data") }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var image = RGBAImage(width: width, height: height)
        image.pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = data + y * stride
                for x in 0..<width {
                    // Cairo ARGB32: premultiplied, native-endian 32-bit words (B, G, R, A bytes here).
                    let px = UnsafeRawPointer(row + x * 4).loadUnaligned(as: UInt32.self)
                    let a = Int(px >> 24), r = Int((px >> 16) & 0xFF), g = Int((px >> 8) & 0xFF), b = Int(px & 0xFF)
                    let o = (y * width + x) * 4
                    if a == 0 { continue }
                    out[o] = UInt8(min(255, (r * 255 + a / 2) / a))
                    out[o + 1] = UInt8(min(255, (g * 255 + a / 2) / a))
                    out[o + 2] = UInt8(min(255, (b * 255 + a / 2) / a))
                    out[o + 3] = UInt8(a)
                }
            }
        }
        return image
    }

    /// A librsvg handle for a document that passed the scan, and what the scan counted.
    private func open(_ svg: [UInt8], name: String) throws -> (UnsafeMutablePointer<RsvgHandle>, SVGPrescan.Totals) {
        guard svg.count <= limits.maxSVGBytes else {
            throw ImageError.svgRefused(name: name, reason: "\(svg.count) bytes is over the \(limits.maxSVGBytes)-byte limit")
        }
        let totals = try SVGPrescan.scan(svg, name: name, limits: limits)
        var error: UnsafeMutablePointer<GError>?
        let handle = svg.withUnsafeBufferPointer { rsvg_handle_new_from_data($0.baseAddress, gsize($0.count), &error) }
        guard let handle else {
            throw ImageError.svg(name: name, reason: "not a readable SVG: \(SVGRasterizer.message(error))")
        }
        return (handle, totals)
    }

    private func intrinsicSize(_ handle: UnsafeMutablePointer<RsvgHandle>, name: String) throws -> (Double, Double) {
        var w = 0.0, h = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &h) == 0 {
            // No width/height in absolute units: fall back to the viewBox.
            var hasW: gboolean = 0, hasH: gboolean = 0, hasViewBox: gboolean = 0
            var lw = RsvgLength(), lh = RsvgLength(), vb = RsvgRectangle()
            rsvg_handle_get_intrinsic_dimensions(handle, &hasW, &lw, &hasH, &lh, &hasViewBox, &vb)
            guard hasViewBox != 0 else { throw ImageError.svg(name: name, reason: "it has neither a pixel size nor a viewBox") }
            w = vb.width; h = vb.height
        }
        guard w > 0, h > 0, w.isFinite, h.isFinite else { throw ImageError.svg(name: name, reason: "its size \(w)x\(h) is empty") }
        return (w, h)
    }

    /// CSS pixels per user unit: the width over the viewBox's, 1 without a viewBox.
    private func pixelsPerUnit(_ handle: UnsafeMutablePointer<RsvgHandle>, width: Double) -> Double {
        var hasW: gboolean = 0, hasH: gboolean = 0, hasViewBox: gboolean = 0
        var lw = RsvgLength(), lh = RsvgLength(), vb = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(handle, &hasW, &lw, &hasH, &lh, &hasViewBox, &vb)
        guard hasViewBox != 0, vb.width > 0, vb.width.isFinite else { return 1 }
        return width / vb.width
    }

    private static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        guard let m = error.pointee.message else { return "unknown error" }
        return String(cString: m)
    }
}
