import Foundation
import GLSnapData
import GLSnapImage

/// tileserver-gl's `watermark` and `staticAttributionText`: a line of text drawn on images with
/// the served fonts' SDF glyphs (a `Regular` font when there is one), 10 px as tileserver-gl's.
final class CaptionText: @unchecked Sendable {
    /// Longest caption drawn, in characters.
    static let maxCharacters = 256
    static let size = 10.0
    private let catalog: DataCatalog
    private let lock = NSLock()
    /// Glyphs by range start (loaded once; a range that cannot be read is empty).
    private var ranges: [UInt32: [UInt32: Glyph]] = [:]

    init(catalog: DataCatalog) { self.catalog = catalog }

    private var font: String? {
        let names = catalog.fontNames()
        return names.first { $0.hasSuffix("Regular") } ?? names.first
    }

    private func glyph(_ c: UInt32) -> Glyph? {
        let start = c / 256 * 256
        lock.lock(); defer { lock.unlock() }
        if ranges[start] == nil {
            var loaded: [UInt32: Glyph] = [:]
            if let font, let file = catalog.glyphFile(stack: [font], range: "\(start)-\(start + 255)"),
               let data = FileManager.default.contents(atPath: file), data.count <= MapService.maxAssetBytes,
               let glyphs = try? GlyphPBF.parse([UInt8](data)) {
                for g in glyphs { loaded[g.id] = g }
            }
            ranges[start] = loaded
        }
        return ranges[start]?[c]
    }

    /// The text's width in points.
    func width(_ text: String) -> Double {
        text.unicodeScalars.prefix(CaptionText.maxCharacters).reduce(0) { $0 + Double(glyph($1.value)?.advance ?? 0) } * CaptionText.size / Glyph.sdfSize
    }

    /// Draws `text` with its baseline starting at (x, y) points; `halo` (a 1-pt outline) first when given.
    func draw(_ text: String, x: Double, y: Double, pixelRatio: Double, color: RGBA, halo: RGBA?, on image: inout RGBAImage) {
        let scale = CaptionText.size / Glyph.sdfSize * pixelRatio
        let gamma = 0.105 / scale
        // SDF edges: 0.75 is the glyph's outline; a halo of h px reaches (6 - h / fontScale) / 8.
        let passes: [(RGBA, Double)] = (halo.map { [($0, (6 - 1 / (CaptionText.size / Glyph.sdfSize)) / 8)] } ?? []) + [(color, 0.75)]
        for (paint, edge) in passes {
            var pen = x * pixelRatio
            let baseline = y * pixelRatio
            for scalar in text.unicodeScalars.prefix(CaptionText.maxCharacters) {
                guard let g = glyph(scalar.value) else { continue }
                defer { pen += Double(g.advance) * scale }
                let bw = g.width + 2 * Glyph.border, bh = g.height + 2 * Glyph.border
                guard g.width > 0, g.bitmap.count == bw * bh else { continue }
                // Glyph metrics put a glyph's top `26 + top` px above the baseline at 24 px.
                let left = pen + Double(g.left - Glyph.border) * scale
                let top = baseline - Double(26 + g.top + Glyph.border) * scale
                let x0 = max(0, Int(left.rounded(.down))), x1 = min(image.width - 1, Int((left + Double(bw) * scale).rounded(.up)))
                let y0 = max(0, Int(top.rounded(.down))), y1 = min(image.height - 1, Int((top + Double(bh) * scale).rounded(.up)))
                guard x0 <= x1, y0 <= y1 else { continue }
                for py in y0...y1 {
                    for px in x0...x1 {
                        let d = sample(g, bw, bh, (Double(px) + 0.5 - left) / scale - 0.5, (Double(py) + 0.5 - top) / scale - 0.5)
                        let t = max(0, min(1, (d - (edge - gamma)) / (2 * gamma)))
                        let a = t * t * (3 - 2 * t) * paint.a
                        if a > 0 { blend(&image, px, py, paint, a) }
                    }
                }
            }
        }
    }

    /// The distance field at (x, y) bitmap pixels, bilinear, 0...1.
    private func sample(_ g: Glyph, _ w: Int, _ h: Int, _ x: Double, _ y: Double) -> Double {
        let fx = max(0, min(Double(w - 1), x)), fy = max(0, min(Double(h - 1), y))
        let ix = min(w - 2, Int(fx)), iy = min(h - 2, Int(fy))
        let tx = fx - Double(ix), ty = fy - Double(iy)
        func v(_ x: Int, _ y: Int) -> Double { Double(g.bitmap[y * w + x]) / 255 }
        let top = v(ix, iy) * (1 - tx) + v(ix + 1, iy) * tx, bottom = v(ix, iy + 1) * (1 - tx) + v(ix + 1, iy + 1) * tx
        return top * (1 - ty) + bottom * ty
    }

    /// Straight-alpha `color` at alpha `a` over pixel (x, y).
    private func blend(_ image: inout RGBAImage, _ x: Int, _ y: Int, _ color: RGBA, _ a: Double) {
        let o = (y * image.width + x) * 4
        let da = Double(image.pixels[o + 3]) / 255
        let outA = a + da * (1 - a)
        guard outA > 0 else { return }
        for (i, c) in [color.r, color.g, color.b].enumerated() {
            let v = (c * a + Double(image.pixels[o + i]) / 255 * da * (1 - a)) / outA
            image.pixels[o + i] = UInt8(max(0, min(255, (v * 255).rounded())))
        }
        image.pixels[o + 3] = UInt8(max(0, min(255, (outA * 255).rounded())))
    }

    /// Fills the box (points) with `color`.
    func fill(x: Double, y: Double, width: Double, height: Double, pixelRatio: Double, color: RGBA, on image: inout RGBAImage) {
        let x0 = max(0, Int((x * pixelRatio).rounded())), x1 = min(image.width, Int(((x + width) * pixelRatio).rounded()))
        let y0 = max(0, Int((y * pixelRatio).rounded())), y1 = min(image.height, Int(((y + height) * pixelRatio).rounded()))
        guard x0 < x1, y0 < y1 else { return }
        for py in y0..<y1 { for px in x0..<x1 { blend(&image, px, py, color, color.a) } }
    }

    /// tileserver-gl's watermark: bottom left, 5 pt in, black at 40% with a white 40% halo.
    func watermark(_ text: String, width: Double, height: Double, pixelRatio: Double, on image: inout RGBAImage) {
        draw(text, x: 5, y: height - 5, pixelRatio: pixelRatio, color: RGBA(r: 0, g: 0, b: 0, a: 0.4),
             halo: RGBA(r: 1, g: 1, b: 1, a: 0.4), on: &image)
    }

    /// tileserver-gl's attribution box: bottom right on white at 80%, black text at 80%.
    func attribution(_ text: String, width: Double, height: Double, pixelRatio: Double, on image: inout RGBAImage) {
        let tw = self.width(text), th = 14.0, padding = 6.0
        fill(x: width - tw - padding, y: height - th - padding, width: tw + padding, height: th + padding, pixelRatio: pixelRatio,
             color: RGBA(r: 1, g: 1, b: 1, a: 0.8), on: &image)
        draw(text, x: width - tw - padding / 2, y: height - th + 8, pixelRatio: pixelRatio, color: RGBA(r: 0, g: 0, b: 0, a: 0.8),
             halo: nil, on: &image)
    }
}
