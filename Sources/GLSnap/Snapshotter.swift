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
///     let snapshot = try snapshotter.snapshot()
///     let png = try snapshot.pngData()
///
/// Made for many snapshots: decoded tiles and tessellated tile layers are cached and reused by
/// later snapshots of nearby views. The snapshotter holds `options.workers` GL contexts;
/// `snapshot(camera:)` may be called from several threads at once: each call takes a free
/// context and all share the caches. The context draws on a thread of its worker's, or with
/// `options.drawOnCallingThread` on the calling thread (see there).
public final class Snapshotter: @unchecked Sendable {
    /// Size, ratio and limits may change between snapshots; `workers` and `backend` are read once, at init.
    public var options: MapSnapshotOptions
    public private(set) var camera = CameraOptions()
    /// Maps custom URL schemes (e.g. `local://`) to file paths; applied before a style's sources,
    /// glyphs and sprites are read. Set before `setStyle`.
    public var resourceRewrite: (@Sendable (String) -> String?)?
    /// Fetches `http://` and `https://` styles, TileJSON, tiles, glyphs and sprites; replace it
    /// (before `setStyle`) to change timeouts, size limits, retries, the connection bound or the
    /// caches. With `options.httpCachePath` it starts as a client with that disk cache.
    public var httpClient: HTTPClient = .shared

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
    /// Cache misses of this snapshotter's snapshots (see `workCounts`).
    let workCounters = WorkCounters()
    /// What was left out of the current style when it was loaded, one sentence per problem as
    /// `glsnap validate` words it (see `MapSnapshotOptions.styleErrors`), then what the style
    /// asks for that glsnap does not draw (a property, terrain, a globe), each named; the first
    /// snapshot of the style lists the same in its `warnings`.
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
    private static let stateGenerations = Counter()

    /// Changes the feature states under the lock and gives them a new generation.
    func updateFeatureStates(_ change: (inout FeatureStates) -> Void) {
        lock.lock(); defer { lock.unlock() }
        change(&featureStates)
        featureStates.generation = Snapshotter.stateGenerations.next()
    }

    func currentFeatureStates() -> FeatureStates {
        lock.lock(); defer { lock.unlock() }
        return featureStates
    }

    public init(options: MapSnapshotOptions) {
        self.options = options
        tileCache = LRUCache(budget: options.limits.tileCacheBytes, cost: CacheCost.tile)
        geometryCache = LRUCache(budget: options.limits.geometryCacheBytes, cost: CacheCost.geometry)
        rasterCache = LRUCache(budget: options.limits.rasterCacheBytes, cost: CacheCost.raster)
        symbolCache = LRUCache(budget: options.limits.symbolCacheBytes, cost: CacheCost.symbols)
        let rasterizer = options.rasterizer ?? .automatic(workers: options.workers)
        workers = (0..<options.workers).map { _ in
            RenderWorker(backend: options.backend, rasterizer: rasterizer, drawOnCallingThread: options.drawOnCallingThread)
        }
        freeWorkers = Array(workers.indices)
        if let path = options.httpCachePath { httpClient = HTTPClient(options: HTTPOptions(diskCachePath: path)) }
    }

    deinit { close() }

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

    public func setCamera(_ camera: CameraOptions) {
        self.camera = camera
    }

    /// The camera as a transform: the camera's values, else the style's, else 0.
    func transform(_ camera: CameraOptions, options: MapSnapshotOptions? = nil) throws -> Transform {
        let options = options ?? self.options
        let size = options.size
        _ = try options.pixelSize(streamed: true)
        let s = style?.style
        let bearing = camera.bearing ?? s?.bearing ?? 0
        let pitch = camera.pitch ?? s?.pitch ?? 0
        guard bearing.isFinite, pitch.isFinite, (0...85).contains(pitch) else {
            throw GLSnapError.invalidOptions("pitch \(pitch) must be within 0...85 and bearing finite")
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
            // The padding places the bounds (MapLibre's cameraForBounds) and is not the map's.
            guard let t = Transform.fitting(bounds: (b.southwest.longitude, b.southwest.latitude, b.northeast.longitude, b.northeast.latitude),
                                            padding: (p.top, p.left, p.bottom, p.right),
                                            width: size.width, height: size.height, bearing: bearing, pitch: pitch,
                                            roll: roll, fieldOfView: fov) else {
                throw GLSnapError.invalidOptions("bounds cannot be fitted into \(size.width)x\(size.height) with padding \(p)")
            }
            return t
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
        guard zoom.isFinite, (Transform.minZoom...24).contains(zoom) else {
            throw GLSnapError.invalidOptions("zoom \(zoom) must be within \(Int(Transform.minZoom))...24")
        }
        return Transform(width: size.width, height: size.height, center: (center.longitude, center.latitude),
                         zoom: zoom, bearing: bearing, pitch: pitch, roll: roll, fieldOfView: fov,
                         padding: (p.top, p.left, p.bottom, p.right))
    }

    /// Renders the current style and camera. `overlay` runs after the map is drawn and may draw
    /// on the image using the snapshot's coordinate conversion.
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
    public func snapshot(camera: CameraOptions, size: Size? = nil, pixelRatio: Double? = nil, timeLimit: Double? = nil,
                         variant: StyleVariant? = nil, overlay: ((inout SnapshotOverlay) -> Void)? = nil) throws -> Snapshot {
        var options = self.options
        if let size { options.size = size }
        if let pixelRatio { options.pixelRatio = pixelRatio }
        if let timeLimit { options.limits.snapshotTimeLimit = timeLimit }
        let (width, height) = try options.pixelSize()
        // Every byte is written below (read back directly, or copied band by band), so the
        // pixels are not zeroed first.
        let byteCount = width * height * 4
        var image = RGBAImage(width: width, height: height,
                              pixels: [UInt8](unsafeUninitializedCapacity: byteCount) { _, count in count = byteCount })
        var snapshot = try image.pixels.withUnsafeMutableBytes { pixels in
            // A one-piece image is read back straight into the snapshot's pixels.
            try render(camera: camera, options: options, variant: variant, destination: pixels) { band, y, rows in
                let start = y * width * 4
                pixels.baseAddress!.advanced(by: start).copyMemory(from: band.baseAddress!, byteCount: rows * width * 4)
            }
        }
        snapshot.image = image
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
    /// The returned snapshot carries the coordinate conversion, timings and warnings, and an empty
    /// 1x1 image.
    public func render(camera: CameraOptions, progress: ((_ done: Int, _ total: Int) -> Void)? = nil,
                       band: (UnsafeRawBufferPointer, _ firstRow: Int, _ rowCount: Int) throws -> Void) throws -> Snapshot {
        try render(camera: camera, options: options, progress: progress, band: band)
    }

    /// With a `destination` of the whole image's size, an image drawn in one piece is read back
    /// into it directly and `band` is not called.
    func render(camera: CameraOptions, options: MapSnapshotOptions, variant: StyleVariant? = nil,
                progress: ((_ done: Int, _ total: Int) -> Void)? = nil,
                destination: UnsafeMutableRawBufferPointer? = nil,
                band: (UnsafeRawBufferPointer, _ firstRow: Int, _ rowCount: Int) throws -> Void) throws -> Snapshot {
        guard let style = variant?.loaded ?? style else { throw GLSnapError.style(source: "(none)", message: "no style set: call setStyle first") }
        let limits = options.limits
        var deadline: RenderDeadline?
        if let seconds = limits.snapshotTimeLimit {
            guard seconds.isFinite, seconds >= 0 else {
                throw GLSnapError.invalidOptions("time limit \(seconds) s must be a finite number of seconds, not negative")
            }
            deadline = RenderDeadline(seconds: seconds)
        }
        let (width, height) = try options.pixelSize(streamed: true)
        let transform = try transform(camera, options: options)
        let resourceMark = style.symbolResources.mark()
        var timings = SnapshotTimings()
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
        let pieceSide = options.limits.pieceSize
        let bandHeight = max(1, min(height, pieceSide, options.limits.maxBandBytes / (width * 4)))
        let columns = (width + pieceSide - 1) / pieceSide
        let bands = (height + bandHeight - 1) / bandHeight
        let direct = destination.flatMap { d in bands == 1 && columns == 1 && d.count >= width * height * 4 ? d : nil }
        var bandPixels = [UInt8](repeating: 0, count: direct == nil ? width * bandHeight * 4 : 0)
        var piecePixels = [UInt8](repeating: 0, count: columns == 1 ? 0 : min(width, pieceSide) * bandHeight * 4)
        for b in 0..<bands {
            let y = b * bandHeight
            let rows = min(bandHeight, height - y)
            for c in 0..<columns {
                let x = c * pieceSide
                let piece = PixelRect(x: x, y: y, width: min(pieceSide, width - x), height: rows)
                let start = DispatchTime.now().uptimeNanoseconds
                let loadBefore = builder.tileLoadSeconds, placementBefore = builder.placementSeconds
                let frame: Frame
                do {
                    frame = try builder.frame(transform: transform, pixelRatio: options.pixelRatio, width: width, height: height, piece: piece)
                } catch let e as DeadlinePassed {
                    throw GLSnapError.timedOut(seconds: e.seconds)
                }
                let tileLoad = builder.tileLoadSeconds - loadBefore
                let placement = builder.placementSeconds - placementBefore
                timings.tileLoad += tileLoad
                timings.placement += placement
                timings.layout += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 - tileLoad - placement
                let (upload, draw, readback): (Double, Double, Double)
                do {
                    (upload, draw, readback) = try withWorker { worker in
                        try worker.run { renderer in
                            let t0 = DispatchTime.now().uptimeNanoseconds
                            let uploadBefore = renderer.context.uploadNanoseconds
                            try renderer.draw(frame)
                            let t1 = DispatchTime.now().uptimeNanoseconds
                            let upload = Double(renderer.context.uploadNanoseconds - uploadBefore) / 1e9
                            if let direct {
                                try renderer.readPixels(into: direct)
                            } else if columns == 1 {
                                try bandPixels.withUnsafeMutableBytes { try renderer.readPixels(into: $0) }
                            } else {
                                try piecePixels.withUnsafeMutableBytes { try renderer.readPixels(into: $0) }
                            }
                            return (upload, Double(t1 - t0) / 1e9 - upload, Double(DispatchTime.now().uptimeNanoseconds - t1) / 1e9)
                        }
                    }
                } catch let e as GLSnapError {
                    throw e
                } catch let e as DeadlinePassed {
                    throw GLSnapError.timedOut(seconds: e.seconds)
                } catch {
                    throw GLSnapError.rendering(error)
                }
                timings.upload += upload
                timings.draw += draw
                timings.readback += readback
                if columns > 1 {
                    // Place the piece's rows into the band.
                    let rowBytes = piece.width * 4
                    bandPixels.withUnsafeMutableBytes { dst in
                        piecePixels.withUnsafeBytes { src in
                            for r in 0..<rows {
                                dst.baseAddress!.advanced(by: (r * width + x) * 4)
                                    .copyMemory(from: src.baseAddress!.advanced(by: r * rowBytes), byteCount: rowBytes)
                            }
                        }
                    }
                }
                progress?(b * columns + c + 1, bands * columns)
            }
            if direct == nil {
                try bandPixels.withUnsafeBytes { try band(UnsafeRawBufferPointer(rebasing: $0[0..<(rows * width * 4)]), y, rows) }
            }
        }
        let resources = style.symbolResources.problems(since: resourceMark)
        if (options.resourceErrors ?? options.sourceErrors) == .fail, let first = resources.failures.first {
            throw GLSnapError.style(source: style.origin, message: first)
        }
        var snapshot = Snapshot(image: RGBAImage(width: 1, height: 1), pixelRatio: options.pixelRatio, transform: transform)
        snapshot.timings = timings
        snapshot.queryIndex = SnapshotQueryIndex(style: style, transform: transform, covers: builder.fullCovers,
                                                 symbols: builder.placedSymbolsByLayer, states: builder.featureStates, tiles: tileCache)
        snapshot.warnings = style.takeStyleWarnings()
            + style.sourceErrors.sorted { $0.key < $1.key }.map { "source \"\($0.key)\": \($0.value)" } + builder.warnings
            + resources.warnings + httpClient.warnings
        return snapshot
    }
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
