import Foundation
import GLSnapData
import GLSnapImage
import GLSnapLayout
import GLSnapRender
import GLSnapStyle

/// Renders map snapshots of a style, like a mobile map snapshotter, with no GPU and no display.
///
///     let snapshotter = Snapshotter(options: MapSnapshotOptions(size: Size(width: 512, height: 512), pixelRatio: 2))
///     try snapshotter.setStyle(path: "style.json")
///     snapshotter.setCamera(CameraOptions(center: Coordinate(latitude: 41.87, longitude: -87.65), zoom: 14))
///     let snapshot = try snapshotter.snapshot()      // or: try await snapshotter.snapshot()
///     let png = try snapshot.pngData()
///
/// Made for many snapshots: decoded tiles and tessellated tile layers are cached and reused by
/// later snapshots of nearby views. The snapshotter holds `configuration.workers` GL contexts;
/// `snapshot(camera:)` may be called from several threads at once: each call takes a free
/// context and all share the caches. The context draws on a thread of its worker's, or with
/// `configuration.drawOnCallingThread` on the calling thread (see there). Thread-safe: the
/// options, camera and resource rewrite are read and written under a lock.
public final class Snapshotter: @unchecked Sendable {
    /// The zooms a snapshot's camera may take (GL JS's lowest `minZoom` to its highest `maxZoom`).
    public static let cameraZooms = Transform.minZoom...24.0

    /// What the snapshotter was made with (GL backend, workers, HTTP client); fixed for its life.
    public let configuration: Configuration
    /// Size, ratio, limits and error policies of the next snapshots (any may change between
    /// snapshots; the cache budgets of `limits` apply to the shared caches at once).
    public var options: MapSnapshotOptions {
        get { lock.lock(); defer { lock.unlock() }; return _options }
        set {
            lock.lock(); _options = newValue; lock.unlock()
            setCacheBudgets(newValue.limits)
        }
    }
    private var _options: MapSnapshotOptions
    /// The camera of `snapshot()` (set with `setCamera`; default: the style's own camera).
    public var camera: CameraOptions {
        lock.lock(); defer { lock.unlock() }
        return _camera
    }
    private var _camera = CameraOptions()
    /// Maps custom URL schemes (e.g. `local://`) to file paths; applied before a style's sources,
    /// glyphs and sprites are read (nil, the default, rewrites nothing). Set before `setStyle`.
    public var resourceRewrite: (@Sendable (String) -> String?)? {
        get { lock.lock(); defer { lock.unlock() }; return _resourceRewrite }
        set { lock.lock(); _resourceRewrite = newValue; lock.unlock() }
    }
    private var _resourceRewrite: (@Sendable (String) -> String?)?
    /// Fetches `http://` and `https://` styles, TileJSON, tiles, glyphs and sprites (see
    /// `Configuration.httpClient`).
    public let httpClient: HTTPClient

    private var style: LoadedStyle? {
        get { lock.lock(); defer { lock.unlock() }; return _style }
        set { lock.lock(); _style = newValue; lock.unlock() }
    }
    private var _style: LoadedStyle?
    var loadedStyle: LoadedStyle? { style }
    /// Serializes the style's changes (setStyle, runtime edits in Snapshotter+Style.swift): each
    /// reads the current style and stores the next; snapshots keep the style they started with.
    let editLock = NSRecursiveLock()
    /// Stores the style `make` gives (under `editLock`); `make` sees the current one.
    func replaceStyle(_ make: (LoadedStyle?) throws -> LoadedStyle) rethrows {
        editLock.lock(); defer { editLock.unlock() }
        style = try make(style)
    }
    /// Canvases and what canvas sources show (Snapshotter+Canvas.swift), under `lock`.
    private var canvasState = CanvasState()
    func withCanvasState<T>(_ body: (inout CanvasState) -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        return body(&canvasState)
    }
    /// Custom layers in draw order (Snapshotter+CustomLayers.swift), under `editLock`.
    var customLayers: [CustomLayerEntry] = []
    /// Cache misses of this snapshotter's snapshots (see `workCounts`).
    let workCounters = WorkCounters()
    /// What was left out of the current style when it was loaded, one sentence per problem as
    /// `glsnap validate` words it (see `MapSnapshotOptions.styleErrors`), then what the style
    /// asks for that glsnap does not draw (a property, terrain, a globe), each named; the first
    /// snapshot of the style lists the same in its `warnings`. Empty without a style.
    public var styleWarnings: [String] { style?.styleWarnings ?? [] }
    /// Images added with `addImage`, by name (see Snapshotter+Images.swift).
    private var images: [String: StyleImage] = [:]
    /// Reads or changes the added images under the lock.
    func withImages<T>(_ body: (inout [String: StyleImage]) -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        return body(&images)
    }
    private let lock = NSLock()
    let workers: [RenderWorker]
    private var freeWorkers: [Int]
    private let workerAvailable = NSCondition()
    let tileCache: LRUCache<TileKey, Cached<VectorTile>>
    let geometryCache: LRUCache<GeometryKey, Cached<GeometryBox>>
    let rasterCache: LRUCache<TileKey, Cached<RasterBox>>
    let symbolCache: LRUCache<SymbolLayoutKey, Cached<SymbolTile>>
    private var featureStates = FeatureStates()
    /// Generations of this snapshotter's feature states. Its own: a generation keys per-vertex
    /// paint in its workers' GPU buffers (`PaintKey.stateGeneration`), which no other snapshotter
    /// reads, so one snapshotter's state changes do not step another's generations.
    let stateGenerations = Counter()

    /// Changes the feature states under the lock and gives them a new generation.
    func updateFeatureStates(_ change: (inout FeatureStates) -> Void) {
        lock.lock(); defer { lock.unlock() }
        change(&featureStates)
        featureStates.generation = stateGenerations.next()
    }

    func currentFeatureStates() -> FeatureStates {
        lock.lock(); defer { lock.unlock() }
        return featureStates
    }

    /// A snapshotter of `options` (which may change later, see `options`) with `configuration`
    /// (default: one OSMesa worker, the shared HTTP client), fixed for its life.
    public init(options: MapSnapshotOptions, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        _options = options
        tileCache = LRUCache(budget: options.limits.tileCacheBytes, cost: CacheCost.tile)
        geometryCache = LRUCache(budget: options.limits.geometryCacheBytes, cost: CacheCost.geometry)
        rasterCache = LRUCache(budget: options.limits.rasterCacheBytes, cost: CacheCost.raster)
        symbolCache = LRUCache(budget: options.limits.symbolCacheBytes, cost: CacheCost.symbols)
        let count = max(1, configuration.workers)
        let rasterizer = configuration.rasterizer ?? .automatic(workers: count)
        workers = (0..<count).map { _ in
            RenderWorker(backend: configuration.backend, rasterizer: rasterizer, drawOnCallingThread: configuration.drawOnCallingThread)
        }
        freeWorkers = Array(workers.indices)
        httpClient = configuration.httpClient
            ?? configuration.httpCachePath.map { HTTPClient(options: HTTPOptions(diskCachePath: $0)) } ?? .shared
    }

    deinit { close() }

    /// The caches' budgets from `limits` (entries over a lowered budget go at once).
    private func setCacheBudgets(_ limits: Limits) {
        tileCache.budget = limits.tileCacheBytes
        geometryCache.budget = limits.geometryCacheBytes
        rasterCache.budget = limits.rasterCacheBytes
        symbolCache.budget = limits.symbolCacheBytes
    }

    /// Ends the snapshotter's workers in order: snapshots in flight finish, then each GL context is
    /// destroyed and each render thread has exited when this returns. Later snapshots throw. A
    /// program that exits right after its last snapshot calls this first (deinit does too), so
    /// that `exit` never unloads Mesa under a thread still releasing a context. Safe to call again.
    public func close() {
        workers.forEach { $0.shutdown() }
    }

    /// What the shared caches hold now: estimated bytes of decoded tiles, tessellated tile layers,
    /// decoded rasters and laid-out symbols (each within its budget in `options.limits`).
    public var cachedBytes: (tiles: Int, geometry: Int, rasters: Int, symbols: Int) {
        (tileCache.bytes, geometryCache.bytes, rasterCache.bytes, symbolCache.bytes)
    }

    /// Runs `body` on a free worker, waiting for one when all are busy; a thread gets the worker
    /// it used last when that one is free (its caches stay warm).
    func withWorker<T>(_ body: (RenderWorker) throws -> T) rethrows -> T {
        workerAvailable.lock()
        while freeWorkers.isEmpty { workerAvailable.wait() }
        let me = pthread_self()
        let pick = freeWorkers.firstIndex { workers[$0].lastThread.map { pthread_equal($0, me) != 0 } ?? false }
            ?? freeWorkers.count - 1
        let i = freeWorkers.remove(at: pick)
        workers[i].lastThread = me
        workerAvailable.unlock()
        defer {
            workerAvailable.lock()
            freeWorkers.append(i)
            workerAvailable.signal()
            workerAvailable.unlock()
        }
        return try body(workers[i])
    }

    /// Loads a style file; relative URLs (`mbtiles://x.mbtiles`, `../glyphs/...`) resolve against its folder.
    /// An `http://` or `https://` URL is fetched (see `setStyle(url:)`).
    public func setStyle(path: String) throws {
        if HTTPClient.handles(path) { return try setStyle(url: path) }
        try replaceStyle { _ in try LoadedStyle.load(path: path, rewrite: resourceRewrite, http: httpClient, options: options, images: styleImages) }
    }

    /// Loads a style from a URL (`http://`, `https://`, `file://` or a path) through `httpClient`;
    /// relative URLs in it resolve against it.
    public func setStyle(url: String) throws {
        let resolver = ResourceResolver(baseURL: url, rewrite: resourceRewrite,
                                        sizeLimit: options.limits.maxStyleBytes, http: httpClient)
        let bytes: [UInt8]
        do { bytes = try resolver.load(url) } catch { throw GLSnapError.style(source: url, message: "\(error)") }
        var sourceResolver = resolver
        sourceResolver.sizeLimit = DataLimits.maxResourceBytes
        try replaceStyle { _ in
            try LoadedStyle.parse(bytes: bytes, origin: url, resolver: sourceResolver, policy: options.sourceErrors,
                                  images: styleImages, limits: options.limits, styleErrors: options.styleErrors)
        }
    }

    /// Loads a style from JSON text; relative URLs resolve against `baseURL` (a file URL or folder path).
    public func setStyle(json: String, baseURL: String? = nil) throws {
        let resolver = ResourceResolver(baseURL: baseURL, rewrite: resourceRewrite, http: httpClient)
        try replaceStyle { _ in
            try LoadedStyle.parse(bytes: Array(json.utf8), origin: "inline JSON", resolver: resolver, policy: options.sourceErrors,
                                  images: styleImages, limits: options.limits, styleErrors: options.styleErrors)
        }
    }

    /// Loads the current style's resources again with the current added images (after
    /// `addImage`/`removeImage`); sources and their decoded tiles are kept.
    func reloadStyleImages() throws {
        editLock.lock(); defer { editLock.unlock() }
        guard let old = style else { return }
        var reuse = StyleReuse(previous: old)
        reuse.keepResources = false
        style = try LoadedStyle(style: old.style, origin: old.origin, resolver: old.resolver, policy: options.sourceErrors,
                                images: styleImages, limits: options.limits, reuse: reuse,
                                styleWarnings: old.loadWarnings)
    }

    /// Sets the camera of `snapshot()` (see `CameraOptions`; unset values fall back to the style's).
    public func setCamera(_ camera: CameraOptions) {
        lock.lock(); _camera = camera; lock.unlock()
    }

    /// The camera that shows `bounds` whole in an image of `options.size` points, leaving
    /// `padding` points free on each side, turned by `bearing` and tilted by `pitch` (nil: the
    /// style's, else 0), as Mapbox's `camera(for:padding:bearing:pitch:)` and MapLibre's
    /// `cameraForBounds` (see `camera(for:size:padding:bearing:pitch:maxZoom:)`). A camera with
    /// `CameraOptions.bounds` is drawn with this camera.
    public func camera(for bounds: CoordinateBounds, padding: EdgeInsets = EdgeInsets(), bearing: Double? = nil,
                       pitch: Double? = nil) throws -> CameraOptions {
        let s = style?.style
        return try Snapshotter.camera(for: bounds, size: options.size, padding: padding, bearing: bearing ?? s?.bearing ?? 0,
                                      pitch: pitch ?? s?.pitch ?? 0)
    }

    /// The camera that shows `bounds` whole in an image of `size` points, leaving `padding`
    /// points (default none) free on each side, turned by `bearing` and tilted by `pitch`
    /// (default 0 each): the zoom is at most `maxZoom` (default 22) and at least 0, the pitch does
    /// not enter the fit, and the padding only places the bounds (the camera returned has none).
    /// The one fit of bounds (`Transform.fitting`) of the library, the CLI and the server. Throws
    /// `GLSnapError.invalidOptions` when the padding leaves no room or a value is not finite.
    public static func camera(for bounds: CoordinateBounds, size: Size, padding: EdgeInsets = EdgeInsets(), bearing: Double = 0,
                              pitch: Double = 0, maxZoom: Double = 22) throws -> CameraOptions {
        let t = try fitted(bounds, padding: padding, size: size, bearing: bearing, pitch: pitch, roll: 0,
                           fieldOfView: Transform.fieldOfView * 180 / .pi, maxZoom: maxZoom)
        return CameraOptions(center: Coordinate(latitude: t.center.lat, longitude: t.center.lon), zoom: t.zoom,
                             bearing: t.bearing, pitch: t.pitch)
    }

    /// The transform that fits `bounds` (`Transform.fitting`).
    private static func fitted(_ b: CoordinateBounds, padding p: EdgeInsets, size: Size, bearing: Double, pitch: Double,
                               roll: Double, fieldOfView fov: Double, maxZoom: Double = 22) throws -> Transform {
        guard let t = Transform.fitting(bounds: (b.southwest.longitude, b.southwest.latitude, b.northeast.longitude, b.northeast.latitude),
                                        padding: (p.top, p.left, p.bottom, p.right),
                                        width: size.width, height: size.height, bearing: bearing, pitch: pitch,
                                        roll: roll, fieldOfView: fov, maxZoom: maxZoom) else {
            throw GLSnapError.invalidOptions("bounds cannot be fitted into \(size.width)x\(size.height) with padding \(p)")
        }
        return t
    }

    /// The camera as a transform of an image of `size` points (checked by `CheckedOptions`): the
    /// camera's values, else the style's, else 0; `bounds` fitted by `camera(for:)`'s fit.
    func transform(_ camera: CameraOptions, size: Size) throws -> Transform {
        let s = style?.style
        let bearing = camera.bearing ?? s?.bearing ?? 0
        let pitch = camera.pitch ?? s?.pitch ?? 0
        guard bearing.isFinite, pitch.isFinite, (0...Transform.maxPitch).contains(pitch) else {
            throw GLSnapError.invalidOptions("pitch \(pitch) must be within 0...\(Int(Transform.maxPitch)) and bearing finite")
        }
        let altitude = camera.centerAltitude ?? s?.json["centerAltitude"]?.numberValue ?? 0
        guard altitude.isFinite, abs(altitude) <= CameraOptions.maxCenterAltitude else {
            throw GLSnapError.invalidOptions("center altitude \(altitude) must be within ±\(Int(CameraOptions.maxCenterAltitude)) meters")
        }
        let roll = camera.roll ?? s?.roll ?? 0
        guard roll.isFinite else { throw GLSnapError.invalidOptions("roll \(roll) must be finite") }
        let fov = camera.fieldOfView ?? Transform.fieldOfView * 180 / .pi
        guard fov.isFinite, fov > 0, fov < 180 else {
            throw GLSnapError.invalidOptions("field of view \(fov) must be above 0 and below 180 degrees")
        }
        let p = camera.padding
        guard [p.top, p.left, p.bottom, p.right].allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            throw GLSnapError.invalidOptions("padding \(p) must be finite and not negative")
        }
        if let b = camera.bounds {
            guard camera.center == nil, camera.zoom == nil else {
                throw GLSnapError.invalidOptions("camera bounds and center/zoom are both set: give bounds (fitted as camera(for:) does) or center and zoom")
            }
            // The padding places the bounds (MapLibre's cameraForBounds) and is not the map's.
            return try Snapshotter.clearOfTheGround(
                Snapshotter.fitted(b, padding: p, size: size, bearing: bearing, pitch: pitch, roll: roll, fieldOfView: fov))
        }
        var center = camera.center ?? s?.center.flatMap { $0.count >= 2 ? Coordinate(latitude: $0[1], longitude: $0[0]) : nil }
            ?? Coordinate(latitude: 0, longitude: 0)
        // A longitude past the antimeridian is the same place on the next world copy, as MapLibre
        // wraps it (unwrapped, 1e300 degrees never ends the tile cover).
        if center.longitude.isFinite, abs(center.longitude) > 180 {
            center.longitude = remainder(center.longitude, 360)
        }
        let zoom = camera.zoom ?? s?.zoom ?? 0
        guard center.latitude.isFinite, center.longitude.isFinite, (-90...90).contains(center.latitude) else {
            throw GLSnapError.invalidOptions("center \(center.longitude),\(center.latitude) is not a valid coordinate")
        }
        guard zoom.isFinite, Snapshotter.cameraZooms.contains(zoom) else {
            throw GLSnapError.invalidOptions("zoom \(zoom) must be within \(Int(Snapshotter.cameraZooms.lowerBound))...\(Int(Snapshotter.cameraZooms.upperBound))")
        }
        return try Snapshotter.clearOfTheGround(
            Transform(width: size.width, height: size.height, center: (center.longitude, center.latitude),
                      zoom: zoom, bearing: bearing, pitch: pitch, roll: roll, fieldOfView: fov,
                      padding: (p.top, p.left, p.bottom, p.right), centerAltitude: altitude))
    }

    /// `t`, unless it is pitched past 85 degrees with the camera lower than an 85-degree camera
    /// would be (`Transform.isClearOfTheGround`): such a view looks along the ground and would
    /// load tiles without bound, or sees the map from below it.
    private static func clearOfTheGround(_ t: Transform) throws -> Transform {
        guard t.pitch <= 85 || t.isClearOfTheGround else {
            throw GLSnapError.invalidOptions("pitch \(t.pitch) puts the camera \(t.cameraHeightAboveGround) px above the ground (negative: below it): past 85 degrees raise the center (centerAltitude) so that the camera is at least \(t.cameraToCenterDistance * cos(85 * Double.pi / 180)) px above the ground")
        }
        return t
    }

    /// Renders the current style and camera. `overlay` (default none) runs after the map is drawn
    /// and may draw on the image using the snapshot's coordinate conversion.
    public func snapshot(overlay: ((inout SnapshotOverlay) -> Void)? = nil) throws -> Snapshot {
        try snapshot(camera: camera, overlay: overlay)
    }

    /// Renders the current style with `camera` (thread-safe: concurrent calls use different workers).
    /// Images larger than `options.limits.pieceSize` are drawn in pieces and stitched.
    /// `size` and `pixelRatio`, when given, replace the options' for this snapshot only (a server
    /// renders many sizes on one worker pool). `timeLimit` (seconds), when given, replaces
    /// `options.limits.snapshotTimeLimit`: past it the snapshot stops between layers, tiles or
    /// pieces and throws `GLSnapError.timedOut`, and the snapshotter is ready for the next one.
    /// `variant` (see `variant(_:)`), when given, is drawn instead of the current style.
    /// `overlay` (default none) draws on the image afterwards (see `snapshot(overlay:)`).
    public func snapshot(camera: CameraOptions, size: Size? = nil, pixelRatio: Double? = nil, timeLimit: Double? = nil,
                         variant: StyleVariant? = nil, overlay: ((inout SnapshotOverlay) -> Void)? = nil) throws -> Snapshot {
        var options = self.options
        if let size { options.size = size }
        if let pixelRatio { options.pixelRatio = pixelRatio }
        if let timeLimit { options.limits.snapshotTimeLimit = timeLimit }
        let checked = try CheckedOptions(options, streamed: false)
        let style = try styleToDraw(variant)
        let resourceMark = style.symbolResources.mark()
        var drawing = try ImageDrawing(snapshotter: self, style: style, camera: camera, checked: checked)
        // Every byte is written by the stitcher (read back directly, or copied piece by piece),
        // so the pixels are not zeroed first.
        let byteCount = checked.width * checked.height * 4
        var image = RGBAImage(width: checked.width, height: checked.height,
                              pixels: [UInt8](unsafeUninitializedCapacity: byteCount) { _, count in count = byteCount })
        try image.pixels.withUnsafeMutableBytes { pixels in
            try drawing.draw(checked.grid, into: Stitcher(grid: checked.grid, image: pixels))
        }
        drawing.drawDebug(on: &image)
        var snapshot = try drawing.snapshot(image: image, resourceMark: resourceMark)
        if let overlay {
            var o = SnapshotOverlay(snapshot: snapshot)
            overlay(&o)
            snapshot.image = o.image
        }
        return snapshot
    }

    /// Renders the current style with `camera` band by band, top to bottom, for images of any size
    /// (up to `options.limits.maxImageSide` a side): each band is full width, at most
    /// `options.limits.pieceSize` rows, drawn in pieces through sub-frusta of the one camera, and
    /// handed to `band(rows, firstRow, rowCount)` as straight RGBA. Memory stays bounded by one band.
    /// `progress(done, total)` (default none) hears of each piece drawn. The returned snapshot
    /// carries the coordinate conversion, timings and warnings; its image, the bands' and
    /// not kept, is an empty 1x1 one.
    public func render(camera: CameraOptions, progress: ((_ done: Int, _ total: Int) -> Void)? = nil,
                       band: (UnsafeRawBufferPointer, _ firstRow: Int, _ rowCount: Int) throws -> Void) throws -> Snapshot {
        let style = try styleToDraw(nil)
        let checked = try CheckedOptions(options, streamed: true)
        let resourceMark = style.symbolResources.mark()
        var drawing = try ImageDrawing(snapshotter: self, style: style, camera: camera, checked: checked)
        let grid = checked.grid
        let stitcher = Stitcher(grid: grid, image: nil)
        try drawing.draw(grid, into: stitcher, progress: progress) { b in
            let rows = grid.rows(ofBand: b)
            try band(stitcher.band(b), rows.lowerBound, rows.count)
        }
        return try drawing.snapshot(image: RGBAImage(width: 1, height: 1), resourceMark: resourceMark)
    }

    /// `snapshot(overlay:)` without blocking the caller: the snapshot is drawn on a thread of a
    /// dispatch queue (its GL work on the workers, as always) while the calling task is suspended.
    public func snapshot(overlay: (@Sendable (inout SnapshotOverlay) -> Void)? = nil) async throws -> Snapshot {
        try await snapshot(camera: camera, overlay: overlay)
    }

    /// `snapshot(camera:size:pixelRatio:timeLimit:variant:overlay:)` without blocking the caller
    /// (see `snapshot(overlay:) async`).
    public func snapshot(camera: CameraOptions, size: Size? = nil, pixelRatio: Double? = nil, timeLimit: Double? = nil,
                         variant: StyleVariant? = nil,
                         overlay: (@Sendable (inout SnapshotOverlay) -> Void)? = nil) async throws -> Snapshot {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Snapshot, Error>) in
            Snapshotter.offCaller.async {
                done.resume(with: Result {
                    try self.snapshot(camera: camera, size: size, pixelRatio: pixelRatio, timeLimit: timeLimit,
                                      variant: variant, overlay: overlay)
                })
            }
        }
    }

    /// Where async snapshots run: a concurrent queue, so a waiting snapshot holds a dispatch
    /// thread, never a thread of the caller's (Swift concurrency's few cooperative threads).
    private static let offCaller = DispatchQueue(label: "glsnap.snapshot", qos: .userInitiated, attributes: .concurrent)
}

extension Snapshotter {
    /// The bounds and minimum zoom of the style's first source that declares bounds (for camera
    /// walks over the data a style shows); nil without a style or bounds.
    public func dataExtent() -> (bounds: CoordinateBounds, minzoom: Int)? {
        guard let style else { return nil }
        for name in style.sources.keys.sorted() {
            guard let info = style.sources[name]?.info, let b = info.bounds, b.count == 4 else { continue }
            return (CoordinateBounds(west: b[0], south: b[1], east: b[2], north: b[3]), info.minzoom)
        }
        return nil
    }

    /// The style's own camera, as `CameraOptions`.
    public var styleCamera: CameraOptions {
        guard let s = style?.style else { return CameraOptions() }
        let center = s.center.flatMap { $0.count >= 2 ? Coordinate(latitude: $0[1], longitude: $0[0]) : nil }
        return CameraOptions(center: center, zoom: s.zoom, bearing: s.bearing, pitch: s.pitch, roll: s.roll)
    }
}

extension Snapshotter {
    /// The largest framebuffer side the GL driver allows (starts a worker's context if needed).
    public func maxFramebufferSize() throws -> Int {
        try withWorker { worker in try worker.run { $0.context.maxFramebufferSize } }
    }
}
