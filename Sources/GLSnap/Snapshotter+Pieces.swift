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
    public let width: Int, height: Int
    let snapshotter: Snapshotter
    let options: MapSnapshotOptions
    let transform: Transform
    private var builder: FrameBuilder
    private let style: LoadedStyle
    private var buffer: [UInt8] = []
    /// Problems drawn around so far (broken tiles under `SourceErrorPolicy.skip`), each once.
    public private(set) var warnings: [String] = []
    private var reported = 0

    init(snapshotter: Snapshotter, style: LoadedStyle, camera: CameraOptions, options: MapSnapshotOptions,
         seams: PlacementSeams) throws {
        self.snapshotter = snapshotter
        self.style = style
        self.options = options
        (width, height) = try options.pixelSize(streamed: true)
        transform = try snapshotter.transform(camera, options: options)
        builder = snapshotter.makeBuilder(style: style, options: options, deadline: nil)
        builder.placementSeams = seams
    }

    /// Draws `rect` (image pixels, within the image) and returns it as straight RGBA; a rectangle
    /// larger than `Limits.pieceSize` is drawn in pieces of at most that size.
    public func render(_ rect: PixelRect) throws -> RGBAImage {
        precondition(rect.x >= 0 && rect.y >= 0 && rect.width > 0 && rect.height > 0
                     && rect.x + rect.width <= width && rect.y + rect.height <= height, "rectangle \(rect) outside the image")
        let side = options.limits.pieceSize
        var out = RGBAImage(width: rect.width, height: rect.height)
        var y = rect.y
        while y < rect.y + rect.height {
            let rows = min(side, rect.y + rect.height - y)
            var x = rect.x
            while x < rect.x + rect.width {
                let columns = min(side, rect.x + rect.width - x)
                let piece = PixelRect(x: x, y: y, width: columns, height: rows)
                try draw(piece)
                // Copy the piece's rows into the rectangle.
                let rowBytes = columns * 4
                out.pixels.withUnsafeMutableBytes { dst in
                    buffer.withUnsafeBytes { src in
                        for r in 0..<rows {
                            dst.baseAddress!.advanced(by: ((y - rect.y + r) * rect.width + (x - rect.x)) * 4)
                                .copyMemory(from: src.baseAddress!.advanced(by: r * rowBytes), byteCount: rowBytes)
                        }
                    }
                }
                x += columns
            }
            y += rows
        }
        let new = builder.warnings.dropFirst(reported)
        reported = builder.warnings.count
        warnings += new
        return out
    }

    private func draw(_ piece: PixelRect) throws {
        let frame = try builder.frame(transform: transform, pixelRatio: options.pixelRatio, width: width, height: height, piece: piece)
        let count = piece.width * piece.height * 4
        if buffer.count < count { buffer = [UInt8](repeating: 0, count: count) }
        do {
            try snapshotter.withWorker { worker in
                try worker.run { [self] renderer in
                    try renderer.draw(frame)
                    try self.buffer.withUnsafeMutableBytes { try renderer.readPixels(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<count])) }
                }
            }
        } catch let e as GLSnapError {
            throw e
        } catch {
            throw GLSnapError.rendering(error)
        }
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
        builder.budget = TessellationBudget(maxElements: max(1, limits.maxTileGeometry),
                                            triangulationStepsPerVertex: max(1, limits.triangulationStepsPerVertex))
        builder.maxFrameGeometry = limits.maxSnapshotGeometry
        builder.maxRasterPixels = limits.maxRasterTilePixels
        builder.deadline = deadline
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
        guard var style = loadedStyle else { throw GLSnapError.style(source: "(none)", message: "no style set: call setStyle first") }
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
