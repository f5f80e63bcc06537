import GLSnapImage

/// The GL JS harness's canvas: how large its map may draw and which part of the drawing it compares.
///
/// GL JS's map lowers its pixel ratio so that the canvas fits its largest drawing buffer
/// (`Map._getClampedPixelRatio`: the ratio times the lesser of max/width and max/height, where
/// they exceed it); the 6.3 harness's map ends at 8192 pixels a side (`pixel-ratio/veryhigh`:
/// 1792 points at ratio 5 is drawn 8192 wide). With `reportWidth`/`reportHeight` the harness then
/// compares only that many pixels of the rows GL reads back first: the canvas's bottom-left corner.
package enum HarnessCanvas {
    /// The largest canvas side, in pixels, of the harness's map.
    package static let maxSide = 8192.0

    /// `ratio` lowered so that `width` x `height` points fit `maxSide` on both sides (unchanged
    /// when they fit).
    package static func pixelRatio(_ ratio: Double, width: Double, height: Double) -> Double {
        let w = width * ratio, h = height * ratio
        let scale = min(w > maxSide ? maxSide / w : 1, h > maxSide ? maxSide / h : 1)
        return ratio * scale
    }

    /// The bottom-left `width` x `height` pixels of `image` (all of it on a side it does not exceed).
    package static func reported(_ image: RGBAImage, width: Int, height: Int) -> RGBAImage {
        let w = max(1, min(width, image.width)), h = max(1, min(height, image.height))
        guard w != image.width || h != image.height else { return image }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(w * h * 4)
        for row in (image.height - h)..<image.height {
            let start = row * image.width * 4
            pixels.append(contentsOf: image.pixels[start..<(start + w * 4)])
        }
        return RGBAImage(width: w, height: h, pixels: pixels)
    }
}
