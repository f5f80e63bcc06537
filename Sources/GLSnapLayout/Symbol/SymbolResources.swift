import GLSnapData
import GLSnapStyle

/// A glyph ready for layout: metrics at the 24 px SDF size and where its (padded) SDF lies in the
/// glyph atlas (nil for blank glyphs such as spaces).
public struct GlyphSlot: Sendable {
    public var left: Double, top: Double, width: Double, height: Double, advance: Double
    public var rect: AtlasRect?
    public init(left: Double, top: Double, width: Double, height: Double, advance: Double, rect: AtlasRect?) {
        self.left = left; self.top = top; self.width = width; self.height = height; self.advance = advance; self.rect = rect
    }
}

/// An icon ready for layout: where it lies in the icon atlas and its size in CSS pixels.
public struct IconSlot: Sendable {
    /// The image's texels, without the atlas padding.
    public var rect: AtlasRect
    /// Device pixels per CSS pixel of the stored raster (for SVG icons, pixel ratio × icon-size).
    public var pixelRatio: Double
    /// The icon-size the raster already includes (SVG icons are rasterized at their drawn size).
    public var baseScale: Double
    public var sdf: Bool
    public var stretchX: [ClosedRange<Double>]
    public var stretchY: [ClosedRange<Double>]
    public var content: [Double]?
    /// How a fitted box keeps to the content box's aspect ratio (nil: stretchOrShrink).
    public var textFitWidth: TextFit?
    public var textFitHeight: TextFit?
    public init(rect: AtlasRect, pixelRatio: Double, baseScale: Double = 1, sdf: Bool, stretchX: [ClosedRange<Double>] = [],
                stretchY: [ClosedRange<Double>] = [], content: [Double]? = nil, textFitWidth: TextFit? = nil,
                textFitHeight: TextFit? = nil) {
        self.rect = rect; self.pixelRatio = pixelRatio; self.baseScale = baseScale; self.sdf = sdf
        self.stretchX = stretchX; self.stretchY = stretchY; self.content = content
        self.textFitWidth = textFitWidth; self.textFitHeight = textFitHeight
    }
    /// Width and height in CSS pixels at icon-size 1.
    public var displaySize: (w: Double, h: Double) {
        (Double(rect.w) / pixelRatio / baseScale, Double(rect.h) / pixelRatio / baseScale)
    }
}

/// Glyphs and icons for symbol layout, with the atlases they live in. Implemented by the
/// snapshotter over a style's glyph URL, sprites and SVG icons.
public protocol SymbolResourceProvider: AnyObject, Sendable {
    /// The glyph for a code point from the first font of `fonts` that has it.
    func glyph(fonts: [String], codepoint: UInt32) -> GlyphSlot?
    /// The image `name` with SVG color parameters applied, rasterized for `iconSize` at the
    /// provider's pixel ratio; nil (with a warning) when the style has no such image.
    func icon(name: String, params: [String: Color], iconSize: Double, pixelRatio: Double) -> IconSlot?
    /// R8 glyph SDFs.
    var glyphAtlas: SymbolAtlas { get }
    /// Premultiplied RGBA icons.
    var iconAtlas: SymbolAtlas { get }
    /// Records a problem met during layout (a missing image, a label over the limits).
    func warn(_ message: String)
    /// The names of the images the style holds at `pixelRatio` (sprite images, as `id:name` for
    /// sprites other than `default`, and added images), which `["image", …]` counts as available
    /// (`coalesce` skips the others, as in MapLibre); nil when they cannot be listed (a folder of
    /// SVG icons): every image then counts as available.
    func availableImages(pixelRatio: Double) -> Set<String>?
}

extension SymbolResourceProvider {
    /// Every image counts as available.
    public func availableImages(pixelRatio: Double) -> Set<String>? { nil }
}
