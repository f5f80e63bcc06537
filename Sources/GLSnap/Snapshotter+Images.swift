import GLSnapData
import GLSnapImage

/// An image added to the style at run time, as `map.addImage` does: icons and patterns name it
/// like a sprite image.
public struct StyleImage: Sendable {
    /// Straight (not premultiplied) RGBA pixels.
    public var image: RGBAImage
    /// Image pixels per CSS pixel: a 2 draws a 64-pixel image 32 pixels wide at pixel ratio 1.
    public var pixelRatio: Double
    /// A signed-distance field (its alpha), tinted by `icon-color` and haloed like text.
    public var sdf: Bool
    /// For icon-text-fit, as in a sprite's index (image pixels): the ranges that stretch, the box
    /// the text fills ([left, top, right, bottom]) and how the fitted box keeps the content's
    /// aspect ratio. Unusable ranges or boxes are ignored with a warning naming the image.
    public var stretchX: [ClosedRange<Double>] = []
    /// The rows that stretch (default none; see `stretchX`).
    public var stretchY: [ClosedRange<Double>] = []
    /// The box the text fills, [left, top, right, bottom] (default nil: the whole image).
    public var content: [Double]?
    /// How the fitted box keeps the content's aspect ratio across (default nil: stretch).
    public var textFitWidth: TextFit?
    /// How the fitted box keeps the content's aspect ratio down (default nil: stretch).
    public var textFitHeight: TextFit?

    /// An image of `image`'s pixels at `pixelRatio` (default 1), an SDF when `sdf` (default false).
    public init(image: RGBAImage, pixelRatio: Double = 1, sdf: Bool = false) {
        self.image = image; self.pixelRatio = pixelRatio; self.sdf = sdf
    }
}

extension Snapshotter {
    /// The images added with `addImage`, by name.
    public var styleImages: [String: StyleImage] { withImages { $0 } }

    /// Adds (or replaces) an image that icons and patterns can name; it hides a sprite image of
    /// the same name. Added images belong to the snapshotter and survive `setStyle`. Throws
    /// `GLSnapError.invalidOptions` for an empty image, one whose pixel count does not match its
    /// size, or a pixel ratio that is not positive. Adding images before `setStyle` is cheapest:
    /// afterwards the style's resources are loaded again.
    public func addImage(_ name: String, _ image: StyleImage) throws {
        let i = image.image
        guard i.width > 0, i.height > 0, i.pixels.count == i.width * i.height * 4 else {
            throw GLSnapError.invalidOptions("image '\(name)' is \(i.width)x\(i.height) with \(i.pixels.count) bytes; it needs a positive size and 4 bytes per pixel")
        }
        guard image.pixelRatio.isFinite, image.pixelRatio > 0 else {
            throw GLSnapError.invalidOptions("image '\(name)' has pixel ratio \(image.pixelRatio); it must be positive")
        }
        withImages { $0[name] = image }
        try reloadStyleImages()
    }

    /// Removes an image added with `addImage` (nothing happens when there is none by that name).
    public func removeImage(_ name: String) throws {
        guard withImages({ $0.removeValue(forKey: name) }) != nil else { return }
        try reloadStyleImages()
    }
}
