import Foundation
import GLSnapImage
import GLSnapLayout
import GLSnapRender

/// Chosen rectangles of one image, drawn on demand: the image is one camera (of any size up to
/// `Limits.maxImageSide`), each rectangle is drawn through a sub-frustum of it, and labels are
/// placed once, for the whole image, with the first rectangle drawn (as `Snapshotter.render`
/// draws its pieces). So rectangles drawn apart and put side by side are the image, labels
/// included: a tile pyramid level is drawn as metatile rectangles of one image of the level.
///
/// Not thread-safe: one caller draws the rectangles of one `ImagePieces` in turn.
public final class ImagePieces {
    /// The whole image's size in pixels.
    public let width: Int, height: Int
    private var drawing: ImageDrawing
    /// Problems drawn around so far (broken tiles under `SourceErrorPolicy.skip`), each once.
    public private(set) var warnings: [String] = []
    private var reported = 0

    init(snapshotter: Snapshotter, style: LoadedStyle, camera: CameraOptions, options: MapSnapshotOptions,
         seams: PlacementSeams) throws {
        var options = options
        // Drawn on demand, so no time limit (it would start now).
        options.limits.snapshotTimeLimit = nil
        let checked = try CheckedOptions(options, streamed: true)
        (width, height) = (checked.width, checked.height)
        drawing = try ImageDrawing(snapshotter: snapshotter, style: style, camera: camera, checked: checked)
        drawing.builder.placementSeams = seams
    }

    /// Draws `rect` (image pixels, within the image) and returns it as straight RGBA; a rectangle
    /// larger than `Limits.pieceSize` is drawn in pieces of at most that size.
    public func render(_ rect: PixelRect) throws -> RGBAImage {
        precondition(rect.x >= 0 && rect.y >= 0 && rect.width > 0 && rect.height > 0
                     && rect.x + rect.width <= width && rect.y + rect.height <= height, "rectangle \(rect) outside the image")
        let side = drawing.checked.options.limits.pieceSize
        let grid = PieceGrid(area: rect, pieceSide: side, bandHeight: side)
        var out = RGBAImage(width: rect.width, height: rect.height)
        try out.pixels.withUnsafeMutableBytes { pixels in
            try drawing.draw(grid, into: Stitcher(grid: grid, image: pixels))
        }
        let new = drawing.builder.warnings.dropFirst(reported)
        reported = drawing.builder.warnings.count
        warnings += new
        return out
    }
}

extension Snapshotter {
    /// A frame builder for one image with the options' limits, feature states and deadline (as
    /// `render` makes its own).
    func makeBuilder(style: LoadedStyle, options: MapSnapshotOptions, deadline: RenderDeadline?) -> FrameBuilder {
        let limits = options.limits
        var builder = FrameBuilder(style: style, tiles: tileCache, geometries: geometryCache, rasters: rasterCache, symbols: symbolCache,
                                   policy: options.sourceErrors)
        builder.featureStates = currentFeatureStates()
        builder.counters = workCounters
        builder.crossSourceCollisions = options.crossSourceCollisions
        builder.terrainSkirts = options.terrainSkirts
        builder.collisionDebug = options.debug.contains(.collision)
        builder.overdrawInspector = options.debug.contains(.overdraw)
        builder.budget = TessellationBudget(maxElements: max(1, limits.maxTileGeometry),
                                            triangulationStepsPerVertex: max(1, limits.triangulationStepsPerVertex))
        builder.maxFrameGeometry = limits.maxSnapshotGeometry
        builder.maxRasterPixels = limits.maxRasterTilePixels
        builder.deadline = deadline
        builder.customLayers = currentCustomLayers()
        (builder.canvasSources, builder.warnings) = canvasSources(style)
        if !builder.featureStates.states.isEmpty { builder.featureStates.promoteIds = Snapshotter.promoteIds(style.style) }
        return builder
    }

    /// Rectangles of the image `camera` shows at `size` points and `pixelRatio` (see `ImagePieces`).
    /// With `freshAtlases`, the image gets glyph, icon and pattern atlases of its own, so its
    /// pixels do not depend on what this snapshotter drew before: atlas positions and sizes
    /// (which decide texture coordinates) then follow from the image's own symbol layout order
    /// (`PyramidRenderer` draws each region so, so that shards and resumed runs give the same bytes).
    /// `seams`: edges shared with neighbouring images whose labels are placed apart (see `PlacementSeams`).
    public func pieces(camera: CameraOptions, size: Size, pixelRatio: Double, freshAtlases: Bool = false,
                       seams: PlacementSeams = .none) throws -> ImagePieces {
        guard var style = loadedStyle else { throw Snapshotter.noStyle }
        if freshAtlases {
            // The same style made again: its sources opened again, glyph, icon and pattern
            // atlases empty, a new cache generation (so symbols are laid out into these atlases).
            style = try LoadedStyle(style: style.style, origin: style.origin, resolver: style.resolver, policy: options.sourceErrors,
                                    images: styleImages, limits: options.limits)
        }
        var options = self.options
        options.size = size
        options.pixelRatio = pixelRatio
        return try ImagePieces(snapshotter: self, style: style, camera: camera, options: options, seams: seams)
    }
}

extension Snapshotter {
    /// The style's `name` and its sources' attributions (each once, in source-name order, joined
    /// by a space), for an archive's metadata; nil where the style has none.
    public var styleNameAndAttribution: (name: String?, attribution: String?) {
        guard let style = loadedStyle else { return (nil, nil) }
        var seen = Set<String>()
        let texts = style.sources.keys.sorted().compactMap { style.sources[$0]?.info.attribution }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
        return (style.style.name, texts.isEmpty ? nil : texts.joined(separator: " "))
    }
}
