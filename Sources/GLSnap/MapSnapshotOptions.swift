
/// What a snapshot is: its size in points, its pixel ratio, its limits and what broken input
/// does. Every field may change between snapshots (`Snapshotter.options`); what a snapshotter
/// reads once, at init (the GL backend, the workers), is its `Snapshotter.Configuration`.
/// The image is floor(width × pixelRatio) × floor(height × pixelRatio) pixels.
public struct MapSnapshotOptions: Sendable {
    /// The image size in points.
    public var size: Size
    /// Pixels per point: 1 (default), 2, 3 or fractional (e.g. 1.5), within `limits.pixelRatio`.
    public var pixelRatio: Double
    /// Size, memory and time limits (default `Limits.default`); the cache budgets apply to the
    /// snapshotter's shared caches from the next snapshot on.
    public var limits: Limits
    /// What a broken source or tile does: `.fail` (default) makes the snapshot throw, naming the
    /// source and tile; `.skip` draws the map without it and lists the problem in
    /// `Snapshot.warnings`, as MapLibre Native does.
    public var sourceErrors: SourceErrorPolicy
    /// What a sprite that cannot be loaded or a glyph range that cannot be read does; nil
    /// (default) follows `sourceErrors`. Such resources are cached per style, so a problem is
    /// reported once, by the snapshot that met it; a service answering many requests sets
    /// `.skip` and logs the warning rather than failing that one request.
    public var resourceErrors: SourceErrorPolicy?
    /// What a style value glsnap cannot use does (a paint value that does not parse, an
    /// `interpolate` whose stops do not ascend, a filter that does not compile, a layer of an
    /// unknown type): `.skip` (default) loads the style as MapLibre does, leaving the value out
    /// (the property takes its default; a bad layer or filter skips the layer) and listing one
    /// warning per problem, with its JSON path as `glsnap validate` words it, in the first
    /// `Snapshot.warnings` of the style; `.fail` refuses the style (`setStyle` throws, listing
    /// every problem), as `glsnap render --strict` does.
    public var styleErrors: SourceErrorPolicy = .skip
    /// Whether labels of different sources hide each other (default true, as in MapLibre); when
    /// false, a label collides only with labels of its own source.
    public var crossSourceCollisions: Bool
    /// Debug drawing over the map (default none): tile borders, collision boxes (see
    /// `MapDebugOptions`). Drawn on `Snapshotter.snapshot` images, not on the bands of `render`.
    public var debug: MapDebugOptions = []
    /// Whether the tiles of 3D terrain hang skirts below their edges (default true, GL JS's
    /// `terrainSkirtLength: "auto"`), hiding hairline gaps between tiles of different zooms;
    /// false (`"none"`) keeps them from showing as walls under a translucent map.
    public var terrainSkirts = true
    /// How a pixel holding more light than coverage is written (default `.clamped`): GL JS's
    /// globe atmosphere glows faintly in clear space, its premultiplied color above its alpha,
    /// which straight alpha cannot hold. See `ExcessLight`.
    package var excessLight: ExcessLight = .clamped

    /// Options of `size` points at `pixelRatio` (default 1), with `limits` (default
    /// `Limits.default`), `sourceErrors` (default `.fail`) and `crossSourceCollisions` (default true).
    public init(size: Size, pixelRatio: Double = 1, limits: Limits = .default,
                sourceErrors: SourceErrorPolicy = .fail, crossSourceCollisions: Bool = true) {
        self.size = size; self.pixelRatio = pixelRatio; self.limits = limits
        self.sourceErrors = sourceErrors
        self.crossSourceCollisions = crossSourceCollisions
    }

    /// The image size in pixels, or an error naming what is out of range. `streamed` images
    /// (written band by band) may exceed `limits.maxImagePixels`, not `limits.maxImageSide`.
    public func pixelSize(streamed: Bool = false) throws -> (width: Int, height: Int) {
        guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0 else {
            throw GLSnapError.invalidOptions("size \(CheckedNumber.describe(size.width))x\(CheckedNumber.describe(size.height)) must be positive")
        }
        guard pixelRatio.isFinite, limits.pixelRatio.contains(pixelRatio) else {
            throw GLSnapError.invalidOptions("pixel ratio \(pixelRatio) is outside \(limits.pixelRatio.lowerBound)...\(limits.pixelRatio.upperBound)")
        }
        let w = (size.width * pixelRatio).rounded(.down), h = (size.height * pixelRatio).rounded(.down)
        guard w >= 1, h >= 1 else {
            throw GLSnapError.invalidOptions("size \(size.width)x\(size.height) at ratio \(pixelRatio) is less than one pixel")
        }
        guard w <= Double(limits.maxImageSide), h <= Double(limits.maxImageSide) else {
            throw GLSnapError.limit(name: "maxImageSide", value: max(w, h), max: Double(limits.maxImageSide),
                                    message: "image \(CheckedNumber.describe(w))x\(CheckedNumber.describe(h)) pixels exceeds the limit of \(limits.maxImageSide) pixels per side")
        }
        guard streamed || w * h <= Double(limits.maxImagePixels) else {
            throw GLSnapError.limit(name: "maxImagePixels", value: w * h, max: Double(limits.maxImagePixels),
                                    message: "image \(CheckedNumber.describe(w))x\(CheckedNumber.describe(h)) pixels is over \(limits.maxImagePixels) pixels to hold in memory; stream it to a file instead (glsnap render does)")
        }
        guard limits.pieceSize >= 16 else {
            throw GLSnapError.invalidOptions("piece size \(limits.pieceSize) must be at least 16 pixels")
        }
        return (Int(w), Int(h))
    }
}

/// See `MapSnapshotOptions.sourceErrors`.
public enum SourceErrorPolicy: Sendable {
    /// The snapshot (or `setStyle`) throws, naming the problem.
    case fail
    /// The problem is drawn around and listed in `Snapshot.warnings`.
    case skip
}

/// See `MapSnapshotOptions.excessLight`.
package enum ExcessLight: Sendable {
    /// The brightest straight color (each channel at most 255): what the glow looks like over
    /// a dark page, as near as straight alpha can say.
    case clamped
    /// What GL JS's render-test harness stores for such a pixel: the 8-bit premultiplied channel
    /// divided by alpha into a byte array, which truncates and wraps past 255. Only for comparing
    /// with that suite's expected images (`glsnap-conformance` sets it).
    case wrappedAsGLJSTests
}
