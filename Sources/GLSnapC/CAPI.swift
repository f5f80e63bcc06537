import Foundation
import GLSnap
import GLSnapStyle
import GLSnapGL
import GLSnapImage
import GLSnapLayout

// The C ABI (include/glsnap.h documents each function: keep the two in step). Every function
// checks its arguments and turns every error into a status code and a message on the handle;
// none traps on input. Handles are retained Swift objects passed as opaque pointers.

/// glsnap_options in glsnap.h, read field by field at C's offsets (Swift structs cannot cross
/// @_cdecl): double width, height, pixel_ratio; int workers, backend, draw_on_calling_thread,
/// skip_source_errors.
struct Options {
    var width = 512.0, height = 512.0, pixelRatio = 1.0
    var workers: Int32 = 1, backend: Int32 = 0, drawOnCallingThread: Int32 = 0, skipSourceErrors: Int32 = 0

    init() {}

    init(_ p: UnsafeRawPointer) {
        width = p.load(fromByteOffset: 0, as: Double.self)
        height = p.load(fromByteOffset: 8, as: Double.self)
        pixelRatio = p.load(fromByteOffset: 16, as: Double.self)
        workers = p.load(fromByteOffset: 24, as: Int32.self)
        backend = p.load(fromByteOffset: 28, as: Int32.self)
        drawOnCallingThread = p.load(fromByteOffset: 32, as: Int32.self)
        skipSourceErrors = p.load(fromByteOffset: 36, as: Int32.self)
    }

    func write(_ p: UnsafeMutableRawPointer) {
        p.storeBytes(of: width, toByteOffset: 0, as: Double.self)
        p.storeBytes(of: height, toByteOffset: 8, as: Double.self)
        p.storeBytes(of: pixelRatio, toByteOffset: 16, as: Double.self)
        p.storeBytes(of: workers, toByteOffset: 24, as: Int32.self)
        p.storeBytes(of: backend, toByteOffset: 28, as: Int32.self)
        p.storeBytes(of: drawOnCallingThread, toByteOffset: 32, as: Int32.self)
        p.storeBytes(of: skipSourceErrors, toByteOffset: 36, as: Int32.self)
    }
}

/// glsnap_camera in glsnap.h: double longitude, latitude, zoom, bearing, pitch; unsigned fields.
struct Camera {
    var longitude = 0.0, latitude = 0.0, zoom = 0.0, bearing = 0.0, pitch = 0.0
    var fields: UInt32 = 0

    init() {}

    init(_ p: UnsafeRawPointer) {
        longitude = p.load(fromByteOffset: 0, as: Double.self)
        latitude = p.load(fromByteOffset: 8, as: Double.self)
        zoom = p.load(fromByteOffset: 16, as: Double.self)
        bearing = p.load(fromByteOffset: 24, as: Double.self)
        pitch = p.load(fromByteOffset: 32, as: Double.self)
        fields = p.load(fromByteOffset: 40, as: UInt32.self)
    }

    func write(_ p: UnsafeMutableRawPointer) {
        p.storeBytes(of: longitude, toByteOffset: 0, as: Double.self)
        p.storeBytes(of: latitude, toByteOffset: 8, as: Double.self)
        p.storeBytes(of: zoom, toByteOffset: 16, as: Double.self)
        p.storeBytes(of: bearing, toByteOffset: 24, as: Double.self)
        p.storeBytes(of: pitch, toByteOffset: 32, as: Double.self)
        p.storeBytes(of: fields, toByteOffset: 40, as: UInt32.self)
    }
}

/// Bits of glsnap_camera.fields.
enum CameraField {
    static let center: UInt32 = 1, zoom: UInt32 = 2, bearing: UInt32 = 4, pitch: UInt32 = 8
}

/// Most workers one snapshotter may have (each is a GL context and a thread).
let maxWorkers: Int32 = 64

extension CameraOptions {
    init(_ c: Camera) {
        self.init()
        if c.fields & CameraField.center != 0 { center = Coordinate(latitude: c.latitude, longitude: c.longitude) }
        if c.fields & CameraField.zoom != 0 { zoom = c.zoom }
        if c.fields & CameraField.bearing != 0 { bearing = c.bearing }
        if c.fields & CameraField.pitch != 0 { pitch = c.pitch }
    }
}

private let version: UnsafePointer<CChar> = {
    let s = Array("0.1.0".utf8CString)
    let p = UnsafeMutablePointer<CChar>.allocate(capacity: s.count)
    p.initialize(from: s, count: s.count)
    return UnsafePointer(p)
}()

@_cdecl("glsnap_version")
public func glsnap_version() -> UnsafePointer<CChar> { version }

@_cdecl("glsnap_options_init")
public func glsnap_options_init(_ o: UnsafeMutableRawPointer?) {
    if let o { Options().write(o) }
}

/// Writes `message` into the caller's buffer, truncated and NUL-terminated.
private func report(_ message: String, _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int) {
    guard let buffer, size > 0 else { return }
    let bytes = Array(message.utf8.prefix(size - 1))
    buffer.withMemoryRebound(to: UInt8.self, capacity: size) { dst in
        for (i, b) in bytes.enumerated() { dst[i] = b }
        dst[bytes.count] = 0
    }
}

@_cdecl("glsnap_snapshotter_new")
public func glsnap_snapshotter_new(_ o: UnsafeRawPointer?, _ error: UnsafeMutablePointer<CChar>?,
                                   _ errorSize: Int) -> OpaquePointer? {
    let given = o.map { Options($0) } ?? Options()
    guard (1...maxWorkers).contains(given.workers) else {
        report("workers \(given.workers) must be within 1...\(maxWorkers)", error, errorSize); return nil
    }
    let backends: [Int32: Backend] = [0: .osmesa, 1: .egl]
    guard let backend = backends[given.backend] else {
        report("backend \(given.backend) is not GLSNAP_BACKEND_OSMESA (0) or GLSNAP_BACKEND_EGL (1)", error, errorSize); return nil
    }
    var options = MapSnapshotOptions(size: Size(width: given.width, height: given.height), pixelRatio: given.pixelRatio,
                                     sourceErrors: given.skipSourceErrors != 0 ? .skip : .fail)
    let configuration = Snapshotter.Configuration(backend: backend, workers: Int(given.workers),
                                                  drawOnCallingThread: given.drawOnCallingThread != 0)
    // The editing calls (glsnap_set_paint_property, ...) load the edited style again and count on
    // a bad value being refused, as pymgl's setters refuse it.
    options.styleErrors = .fail
    do { _ = try options.pixelSize() } catch let e {
        report(CallError(e).message, error, errorSize); return nil
    }
    let handle = SnapshotterHandle(Snapshotter(options: options, configuration: configuration))
    return OpaquePointer(Unmanaged.passRetained(handle).toOpaque())
}

@_cdecl("glsnap_snapshotter_free")
public func glsnap_snapshotter_free(_ s: OpaquePointer?) {
    guard let s else { return }
    let handle = Unmanaged<SnapshotterHandle>.fromOpaque(UnsafeRawPointer(s))
    handle.takeUnretainedValue().snapshotter.close()
    handle.release()
}

@_cdecl("glsnap_snapshotter_error")
public func glsnap_snapshotter_error(_ s: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let s else { return nil }
    return UnsafeMutableRawPointer(s).snapshotter().errors.current()
}

@_cdecl("glsnap_error_problem_count")
public func glsnap_error_problem_count(_ s: OpaquePointer?) -> Int32 {
    guard let s else { return 0 }
    return Int32(clamping: UnsafeMutableRawPointer(s).snapshotter().errors.problemCount())
}

@_cdecl("glsnap_error_problem_path")
public func glsnap_error_problem_path(_ s: OpaquePointer?, _ index: Int32) -> UnsafePointer<CChar>? {
    guard let s else { return nil }
    return UnsafeMutableRawPointer(s).snapshotter().errors.problemText(Int(index), path: true)
}

@_cdecl("glsnap_error_problem_message")
public func glsnap_error_problem_message(_ s: OpaquePointer?, _ index: Int32) -> UnsafePointer<CChar>? {
    guard let s else { return nil }
    return UnsafeMutableRawPointer(s).snapshotter().errors.problemText(Int(index), path: false)
}

@_cdecl("glsnap_error_problem_line")
public func glsnap_error_problem_line(_ s: OpaquePointer?, _ index: Int32) -> Int32 {
    guard let s else { return 0 }
    return UnsafeMutableRawPointer(s).snapshotter().errors.problemLine(Int(index))
}

@_cdecl("glsnap_error_source")
public func glsnap_error_source(_ s: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let s else { return nil }
    return UnsafeMutableRawPointer(s).snapshotter().errors.sourceText(location: false)
}

@_cdecl("glsnap_error_source_tile")
public func glsnap_error_source_tile(_ s: OpaquePointer?, _ z: UnsafeMutablePointer<Int32>?, _ x: UnsafeMutablePointer<Int32>?,
                                     _ y: UnsafeMutablePointer<Int32>?) -> Int32 {
    guard let s, let tile = UnsafeMutableRawPointer(s).snapshotter().errors.sourceTile() else { return 0 }
    z?.pointee = Int32(tile.z); x?.pointee = Int32(tile.x); y?.pointee = Int32(tile.y)
    return 1
}

@_cdecl("glsnap_error_source_location")
public func glsnap_error_source_location(_ s: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let s else { return nil }
    return UnsafeMutableRawPointer(s).snapshotter().errors.sourceText(location: true)
}

/// Runs a call on a snapshotter handle; a NULL handle is GLSNAP_ERR_INVALID_ARGUMENT.
func call(_ s: OpaquePointer?, _ body: (SnapshotterHandle) throws -> Void) -> Int32 {
    guard let s else { return Status.invalidArgument.rawValue }
    let handle = UnsafeMutableRawPointer(s).snapshotter()
    return handle.errors.call { try body(handle) }
}

@_cdecl("glsnap_set_style_json")
public func glsnap_set_style_json(_ s: OpaquePointer?, _ json: UnsafePointer<CChar>?, _ base: UnsafePointer<CChar>?) -> Int32 {
    call(s) { h in
        let style = try text(json, "json")
        let base = try base.map { try text($0, "base") }
        try h.styleLock.withLock {
            let doc = try StyleDocument(text: style, base: base)
            try h.snapshotter.setStyle(json: style, baseURL: base)
            h.style = doc
        }
    }
}

@_cdecl("glsnap_set_style_file")
public func glsnap_set_style_file(_ s: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    call(s) { h in
        let path = try text(path, "path")
        guard !path.isEmpty else { throw CallError(.invalidArgument, "path is empty") }
        try h.styleLock.withLock {
            if path.hasPrefix("http://") || path.hasPrefix("https://") {
                try h.snapshotter.setStyle(url: path)
                h.style = nil
                return
            }
            try h.snapshotter.setStyle(path: path)
            // The loader read and checked the file; keep its JSON for the style-editing calls.
            let bytes = FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
            h.style = try StyleDocument(text: String(decoding: bytes, as: UTF8.self),
                                        base: URL(fileURLWithPath: path).absoluteString)
        }
    }
}

@_cdecl("glsnap_set_camera")
public func glsnap_set_camera(_ s: OpaquePointer?, _ camera: UnsafeRawPointer?) -> Int32 {
    call(s) { h in
        guard let camera else { throw CallError(.invalidArgument, "camera is NULL") }
        h.snapshotter.setCamera(CameraOptions(Camera(camera)))
    }
}

@_cdecl("glsnap_set_size")
public func glsnap_set_size(_ s: OpaquePointer?, _ width: Double, _ height: Double) -> Int32 {
    call(s) { h in
        var options = h.snapshotter.options
        options.size = Size(width: width, height: height)
        _ = try options.pixelSize()
        h.snapshotter.options = options
    }
}

@_cdecl("glsnap_fit_bounds")
public func glsnap_fit_bounds(_ s: OpaquePointer?, _ west: Double, _ south: Double, _ east: Double, _ north: Double,
                              _ padding: Double, _ bearing: Double, _ camera: UnsafeMutableRawPointer?) -> Int32 {
    call(s) { h in
        guard let camera else { throw CallError(.invalidArgument, "camera is NULL") }
        let size = h.snapshotter.options.size
        guard padding.isFinite, padding >= 0, bearing.isFinite,
              let t = try? h.snapshotter.camera(for: CoordinateBounds(west: west, south: south, east: east, north: north),
                                                padding: EdgeInsets(all: padding), bearing: bearing),
              let center = t.center, let zoom = t.zoom else {
            throw CallError(.invalidArgument, "bounds \(west),\(south),\(east),\(north) with padding \(padding) cannot be fitted into \(size.width)x\(size.height)")
        }
        var c = Camera()
        c.longitude = center.longitude; c.latitude = center.latitude; c.zoom = zoom; c.bearing = bearing
        c.fields = CameraField.center | CameraField.zoom | CameraField.bearing
        c.write(camera)
    }
}

/// Renders `camera` (nil: the snapshotter's) at a size and ratio (0: the snapshotter's).
private func snapshot(_ h: SnapshotterHandle, _ camera: UnsafeRawPointer?, _ width: Double, _ height: Double,
                      _ ratio: Double) throws -> Snapshot {
    let c = camera.map { CameraOptions(Camera($0)) } ?? h.snapshotter.camera
    guard width >= 0, height >= 0, ratio >= 0, (width == 0) == (height == 0) else {
        throw CallError(.invalidArgument, "size \(width)x\(height) and ratio \(ratio): give both sides (or 0 for the snapshotter's) and a ratio >= 0")
    }
    return try h.snapshotter.snapshot(camera: c, size: width > 0 ? Size(width: width, height: height) : nil,
                                      pixelRatio: ratio > 0 ? ratio : nil)
}

@_cdecl("glsnap_render")
public func glsnap_render(_ s: OpaquePointer?, _ camera: UnsafeRawPointer?, _ width: Double, _ height: Double,
                          _ ratio: Double, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    call(s) { h in
        guard let out else { throw CallError(.invalidArgument, "out is NULL") }
        out.pointee = nil
        let snap = try snapshot(h, camera, width, height, ratio)
        out.pointee = OpaquePointer(Unmanaged.passRetained(SnapshotHandle(snap)).toOpaque())
    }
}

/// GLSNAP_FORMAT_PNG (0), JPEG (1), WEBP (2).
@discardableResult
private func checkFormat(_ format: Int32) throws -> ImageFormat {
    switch format {
    case 0: return .png
    case 1: return .jpeg
    case 2: return .webp
    default: throw CallError(.invalidArgument, "format \(format) is not GLSNAP_FORMAT_PNG (0), JPEG (1) or WEBP (2)")
    }
}

/// Encodes an image; quality <= 0 takes each encoder's default, a larger one is capped at the
/// format's highest (PNG's level 9, quality 100).
private func encode(_ image: RGBAImage, _ format: Int32, _ quality: Int32) throws -> [UInt8] {
    let format = try checkFormat(format)
    let encoder = quality <= 0 ? ImageEncoder(format: format)
        : ImageEncoder(format: format, png: PNGEncoder.Options(level: Int(min(quality, 9))), quality: Int(min(quality, 100)))
    do {
        return try encoder.encode(image)
    } catch {
        throw CallError(.image, "encoding the image failed: \(error)")
    }
}

@_cdecl("glsnap_render_encoded")
public func glsnap_render_encoded(_ s: OpaquePointer?, _ camera: UnsafeRawPointer?, _ width: Double, _ height: Double,
                                  _ ratio: Double, _ format: Int32, _ quality: Int32,
                                  _ out: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, _ length: UnsafeMutablePointer<Int>?) -> Int32 {
    call(s) { h in
        guard let out, let length else { throw CallError(.invalidArgument, "out or length is NULL") }
        out.pointee = nil
        length.pointee = 0
        try checkFormat(format)
        let snap = try snapshot(h, camera, width, height, ratio)
        try mallocCopy(try encode(snap.image, format, quality), out, length)
    }
}

// MARK: snapshots

func snapshotHandle(_ p: OpaquePointer?) -> SnapshotHandle? { p.map { UnsafeMutableRawPointer($0).snapshotHandle() } }

@_cdecl("glsnap_snapshot_free")
public func glsnap_snapshot_free(_ p: OpaquePointer?) {
    guard let p else { return }
    Unmanaged<SnapshotHandle>.fromOpaque(UnsafeRawPointer(p)).release()
}

@_cdecl("glsnap_snapshot_error")
public func glsnap_snapshot_error(_ p: OpaquePointer?) -> UnsafePointer<CChar>? { snapshotHandle(p)?.errors.current() }

@_cdecl("glsnap_snapshot_width")
public func glsnap_snapshot_width(_ p: OpaquePointer?) -> Int32 { Int32(snapshotHandle(p)?.snapshot.image.width ?? 0) }

@_cdecl("glsnap_snapshot_height")
public func glsnap_snapshot_height(_ p: OpaquePointer?) -> Int32 { Int32(snapshotHandle(p)?.snapshot.image.height ?? 0) }

@_cdecl("glsnap_snapshot_pixel_ratio")
public func glsnap_snapshot_pixel_ratio(_ p: OpaquePointer?) -> Double { snapshotHandle(p)?.snapshot.pixelRatio ?? 0 }

@_cdecl("glsnap_snapshot_pixels")
public func glsnap_snapshot_pixels(_ p: OpaquePointer?, _ length: UnsafeMutablePointer<Int>?) -> UnsafePointer<UInt8>? {
    guard let h = snapshotHandle(p) else { length?.pointee = 0; return nil }
    length?.pointee = h.snapshot.image.pixels.count
    // The array lives as long as the handle and is never mutated, so its storage stays put.
    return h.snapshot.image.pixels.withUnsafeBufferPointer { $0.baseAddress }
}

@_cdecl("glsnap_snapshot_encode")
public func glsnap_snapshot_encode(_ p: OpaquePointer?, _ format: Int32, _ quality: Int32,
                                   _ out: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, _ length: UnsafeMutablePointer<Int>?) -> Int32 {
    guard let h = snapshotHandle(p) else { return Status.invalidArgument.rawValue }
    return h.errors.call {
        guard let out, let length else { throw CallError(.invalidArgument, "out or length is NULL") }
        out.pointee = nil
        length.pointee = 0
        try mallocCopy(try encode(h.snapshot.image, format, quality), out, length)
    }
}

@_cdecl("glsnap_snapshot_warnings")
public func glsnap_snapshot_warnings(_ p: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    guard let h = snapshotHandle(p) else { return Status.invalidArgument.rawValue }
    return h.errors.call {
        guard let out else { throw CallError(.invalidArgument, "out is NULL") }
        try mallocString(JSON.array(h.snapshot.warnings.map { .string($0) }).text, out)
    }
}

@_cdecl("glsnap_snapshot_point_for")
public func glsnap_snapshot_point_for(_ p: OpaquePointer?, _ longitude: Double, _ latitude: Double,
                                      _ x: UnsafeMutablePointer<Double>?, _ y: UnsafeMutablePointer<Double>?) -> Int32 {
    guard let h = snapshotHandle(p) else { return Status.invalidArgument.rawValue }
    return h.errors.call {
        guard let x, let y else { throw CallError(.invalidArgument, "x or y is NULL") }
        guard longitude.isFinite, latitude.isFinite else { throw CallError(.invalidArgument, "coordinate \(longitude),\(latitude) is not finite") }
        let point = h.snapshot.point(for: Coordinate(latitude: latitude, longitude: longitude))
        x.pointee = point.x
        y.pointee = point.y
    }
}

@_cdecl("glsnap_snapshot_coordinate_for")
public func glsnap_snapshot_coordinate_for(_ p: OpaquePointer?, _ x: Double, _ y: Double,
                                           _ longitude: UnsafeMutablePointer<Double>?, _ latitude: UnsafeMutablePointer<Double>?) -> Int32 {
    guard let h = snapshotHandle(p) else { return Status.invalidArgument.rawValue }
    return h.errors.call {
        guard let longitude, let latitude else { throw CallError(.invalidArgument, "longitude or latitude is NULL") }
        guard x.isFinite, y.isFinite else { throw CallError(.invalidArgument, "point \(x),\(y) is not finite") }
        let c = h.snapshot.coordinate(for: Point(x: x, y: y))
        longitude.pointee = c.longitude
        latitude.pointee = c.latitude
    }
}

@_cdecl("glsnap_free")
public func glsnap_free(_ p: UnsafeMutableRawPointer?) { free(p) }

@_cdecl("glsnap_decode_image")
public func glsnap_decode_image(_ bytes: UnsafePointer<UInt8>?, _ length: Int, _ rgba: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?,
                                _ width: UnsafeMutablePointer<Int32>?, _ height: UnsafeMutablePointer<Int32>?,
                                _ errorText: UnsafeMutablePointer<CChar>?, _ errorSize: Int) -> Int32 {
    do {
        guard let bytes, length > 0, let rgba, let width, let height else {
            throw CallError(.invalidArgument, "bytes, rgba_out, width_out or height_out is NULL or empty")
        }
        rgba.pointee = nil
        let image: RGBAImage
        do { image = try ImageDecoder().decode(Array(UnsafeBufferPointer(start: bytes, count: length))) } catch {
            throw CallError(.image, "cannot decode the image: \(error)")
        }
        try mallocCopy(image.pixels, rgba, nil)
        width.pointee = Int32(image.width)
        height.pointee = Int32(image.height)
        return Status.ok.rawValue
    } catch {
        let e = CallError(error)
        report(e.message, errorText, errorSize)
        return e.status.rawValue
    }
}
