import GLSnap
import GLSnapImage

/// `metadata.test.showPadding`: GL JS's padding debug drawing on top of the map, a 3-px line
/// along each padded edge (top red, bottom green, left blue, right magenta) and a cyan
/// crosshair at the center, each a scissored clear (drawDebugPadding).
package enum DebugPadding {
    /// Draws on `image` (drawn at `pixelRatio` from a `width` x `height` view) for `padding`.
    package static func draw(on image: inout RGBAImage, padding p: EdgeInsets, width: Double, height: Double, pixelRatio: Double) {
        let line = 3.0
        rect(&image, 0, height - p.top + line / 2, width, line, [255, 0, 0], pixelRatio)
        rect(&image, 0, p.bottom + line / 2, width, line, [0, 255, 0], pixelRatio)
        rect(&image, p.left - line / 2, 0, line, height, [0, 0, 255], pixelRatio)
        rect(&image, width - p.right - line / 2, 0, line, height, [255, 0, 255], pixelRatio)
        // The center as the transform has it (the middle of the padded area), y from the bottom.
        let cx = min(max((p.left + width - p.right) / 2, 0), width)
        let cy = height - min(max((p.top + height - p.bottom) / 2, 0), height)
        let size = 20.0, cross = 2.0
        rect(&image, cx - cross / 2, cy - size / 2, cross, size, [0, 255, 255], pixelRatio)
        rect(&image, cx - size / 2, cy - cross / 2, size, cross, [0, 255, 255], pixelRatio)
    }

    /// A scissor box in CSS pixels from the bottom-left, truncated to whole device pixels as
    /// WebGL's `scissor` takes them, filled with an opaque color.
    private static func rect(_ image: inout RGBAImage, _ x: Double, _ y: Double, _ w: Double, _ h: Double,
                             _ rgb: [UInt8], _ ratio: Double) {
        let x0 = Int(x * ratio), y0 = Int(y * ratio), bw = Int(w * ratio), bh = Int(h * ratio)
        guard bw > 0, bh > 0 else { return }
        for row in max(y0, 0)..<max(min(y0 + bh, image.height), max(y0, 0)) {
            let top = image.height - 1 - row
            for col in max(x0, 0)..<max(min(x0 + bw, image.width), max(x0, 0)) {
                let i = (top * image.width + col) * 4
                image.pixels[i] = rgb[0]; image.pixels[i + 1] = rgb[1]; image.pixels[i + 2] = rgb[2]; image.pixels[i + 3] = 255
            }
        }
    }
}
