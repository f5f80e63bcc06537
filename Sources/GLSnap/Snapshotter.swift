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
/// later snapshots of nearby views, and the GL context lives on a worker thread the snapshotter
/// owns. `snapshot` may be called from any thread; calls are serialized on the worker.
public final class Snapshotter: @unchecked Sendable {
    public var options: MapSnapshotOptions
    public private(set) var camera = CameraOptions()
    /// Maps custom URL schemes (e.g. `local://`) to file paths; applied before a style's sources,
    /// glyphs and sprites are read. Set before `setStyle`.
    public var resourceRewrite: (@Sendable (String) -> String?)?

    private var style: LoadedStyle?
    private let worker: RenderWorker
    private let tileCache = LRUCache<TileKey, Cached<VectorTile>>(capacity: 2048)
    private let geometryCache = LRUCache<GeometryKey, Cached<GeometryBox>>(capacity: 8192)
    private let rasterCache = LRUCache<TileKey, Cached<RasterBox>>(capacity: 512)

    public init(options: MapSnapshotOptions) {
        self.options = options
        worker = RenderWorker(backend: options.backend)
    }

    deinit { worker.stop() }

    /// Loads a style file; relative URLs (`mbtiles://x.mbtiles`, `../glyphs/...`) resolve against its folder.
    public func setStyle(path: String) throws {
        style = try LoadedStyle.load(path: path, rewrite: resourceRewrite, limits: options.limits)
    }

    /// Loads a style from JSON text; relative URLs resolve against `baseURL` (a file URL or folder path).
    public func setStyle(json: String, baseURL: String? = nil) throws {
        let resolver = ResourceResolver(baseURL: baseURL, rewrite: resourceRewrite)
        style = try LoadedStyle.parse(bytes: Array(json.utf8), origin: "inline JSON", resolver: resolver)
    }

    public func setCamera(_ camera: CameraOptions) {
        self.camera = camera
    }

    /// The camera as a transform: the options' values, else the style's, else 0.
    func transform() throws -> Transform {
        let size = options.size
        _ = try options.pixelSize()
        let s = style?.style
        let bearing = camera.bearing ?? s?.bearing ?? 0
        let pitch = camera.pitch ?? s?.pitch ?? 0
        guard bearing.isFinite, pitch.isFinite, (0...85).contains(pitch) else {
            throw GLSnapError.invalidOptions("pitch \(pitch) must be within 0...85 and bearing finite")
        }
        if let b = camera.bounds {
            let p = camera.padding
            guard let t = Transform.fitting(bounds: (b.southwest.longitude, b.southwest.latitude, b.northeast.longitude, b.northeast.latitude),
                                            padding: (p.top, p.left, p.bottom, p.right),
                                            width: size.width, height: size.height, bearing: bearing, pitch: pitch) else {
                throw GLSnapError.invalidOptions("bounds cannot be fitted into \(size.width)x\(size.height) with padding \(p)")
            }
            return t
        }
        let center = camera.center ?? s?.center.flatMap { $0.count >= 2 ? Coordinate(latitude: $0[1], longitude: $0[0]) : nil }
            ?? Coordinate(latitude: 0, longitude: 0)
        let zoom = camera.zoom ?? s?.zoom ?? 0
        guard center.latitude.isFinite, center.longitude.isFinite, (-90...90).contains(center.latitude) else {
            throw GLSnapError.invalidOptions("center \(center.longitude),\(center.latitude) is not a valid coordinate")
        }
        guard zoom.isFinite, (0...24).contains(zoom) else {
            throw GLSnapError.invalidOptions("zoom \(zoom) must be within 0...24")
        }
        return Transform(width: size.width, height: size.height, center: (center.longitude, center.latitude),
                         zoom: zoom, bearing: bearing, pitch: pitch)
    }

    /// Renders the current style and camera. `overlay` runs after the map is drawn and may draw
    /// on the image using the snapshot's coordinate conversion.
    public func snapshot(overlay: ((inout SnapshotOverlay) -> Void)? = nil) throws -> Snapshot {
        guard let style else { throw GLSnapError.style(source: "(none)", message: "no style set: call setStyle first") }
        let (width, height) = try options.pixelSize()
        let transform = try transform()
        let builder = FrameBuilder(style: style, tiles: tileCache, geometries: geometryCache, rasters: rasterCache)
        let frame = try builder.frame(transform: transform, pixelRatio: options.pixelRatio, width: width, height: height)
        let image: RGBAImage
        do {
            image = try worker.run { renderer in try renderer.render(frame) }
        } catch let e as GLSnapError {
            throw e
        } catch {
            throw GLSnapError.render("\(error)")
        }
        var snapshot = Snapshot(image: image, pixelRatio: options.pixelRatio, transform: transform)
        if let overlay {
            var o = SnapshotOverlay(snapshot: snapshot)
            overlay(&o)
            snapshot.image = o.image
        }
        return snapshot
    }
}
