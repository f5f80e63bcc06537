import Foundation
import GLSnap
import GLSnapGL
import GLSnapImage

enum RenderCommand {
    static let help = """
    usage: glsnap render [--style STYLE.json] [--center LON,LAT --zoom Z] [--bearing B] [--pitch P]
                         [--roll R] [--fov DEGREES] [--center-altitude METERS]
                         [--bounds W,S,E,N [--padding P]] [--size WxH] [--ratio R]
                         [--backend osmesa|egl] [--compression 0-9] [--piece N] [--strict] [--http-cache DIR]
                         [--debug tiles,collision,overdraw]
                         [-o OUT.png|.jpg|.webp] [--format png|jpeg|webp]
           glsnap render --size auto (--bounds W,S,E,N | --fit-data SOURCE) (--zoom Z | --resolution M) [--padding P] ...

    Renders one map image. Without --style it renders the bundled example (Chicago, from
    OpenStreetMap data) so the command works offline. Camera values not given come from the style.
      --style       style file (MapLibre/Mapbox GL style spec v8)
      --center      longitude,latitude (negative values are fine: --center -87.65,41.87)
      --zoom        zoom level 0-24
      --bearing     degrees clockwise from north
      --pitch       degrees from straight down, 0-180 (past 90 the camera looks up: raise the center)
      --roll        degrees the view turns about its own axis, clockwise (default: the style's, else 0)
      --fov         vertical field of view in degrees, 0.01-179 (default 36.87, as GL JS)
      --center-altitude  meters the center lies above the ground, which lifts the camera orbiting it
                    (GL JS's setCenterElevation; default: the style's centerAltitude, else 0)
      --bounds      west,south,east,north: fit these bounds instead of --center/--zoom
      --padding     points of padding around --bounds (default 0)
      --size        width x height in points (default 512x512), up to 65535 pixels a side: images
                    larger than one piece are drawn in pieces and streamed to the file band by band;
                    `auto` sizes the image to hold --bounds or --fit-data at --zoom or --resolution
      --fit-data    a source of the style whose data (GeoJSON features or declared bounds) to fit
      --resolution  meters per point at the bounds' center, instead of --zoom (with --size auto)
      --piece       largest piece drawn at once, in pixels (default 4096, at most the GL limit)
      --max-size    largest image side allowed, in pixels (default 65535)
      --ratio       pixel ratio: the image is floor(width*ratio) x floor(height*ratio) pixels (default 1)
      --backend     osmesa (default, needs no display) or egl (GPU where present, else surfaceless Mesa)
      --compression PNG zlib level (default 6)
      --strict      fail (exit 1) on a source or tile that cannot be read or decoded, or a style value
                    glsnap cannot use, naming it; by default the map is drawn without it and a
                    warning is printed (for a style value, as glsnap validate words it)
      --http-cache  folder of an on-disk cache of HTTP(S) responses (created when missing), kept
                    between runs as the servers' Cache-Control and ETag headers allow
      --debug       debug drawing over the map, comma-separated: tiles (tile borders), collision
                    (collision boxes and circles, blue placed, red not), overdraw (each layer's
                    fragments counted: 32 grey per fragment over black); the image is drawn in memory
      -o            output file (default map.png); .png is streamed band by band, .jpg/.jpeg/.webp are
                    encoded from the whole image in memory; written to a temporary file beside it
                    and renamed when complete, so a failed render keeps the earlier file
      --format      png, jpeg or webp, instead of the format -o's extension names
    """

    /// The options `render` reads (and `query`, which draws the same map).
    static let valuedOptions: Set<String> = ["--style", "--center", "--zoom", "--bearing", "--pitch", "--roll", "--fov", "--center-altitude", "--bounds", "--padding",
                                             "--size", "--ratio", "--backend", "--compression", "-o", "--output", "--format", "--piece",
                                             "--fit-data", "--resolution", "--max-size", "--http-cache", "--debug"]
    static let flagOptions: Set<String> = ["--help", "-h", "--quiet", "--strict"]

    static func run(_ argv: [String]) throws -> Int32 {
        let a = try Arguments(argv, valued: valuedOptions, flags: flagOptions)
        if a.flags.contains("--help") || a.flags.contains("-h") {
            print(help)
            return 0
        }
        guard a.positionals.isEmpty else { throw UsageError("unexpected argument '\(a.positionals[0])'") }
        var png = PNGEncoder.Options.standard
        if let c = a.options["--compression"] {
            guard let level = Int(c), (0...9).contains(level) else { throw UsageError("--compression must be 0-9, got '\(c)'") }
            png = PNGEncoder.Options(compressionLevel: level, filter: png.filter)
        }
        let output = a.options["-o"] ?? a.options["--output"] ?? "map.png"
        let format = try ImageFormat(output: output, option: a.options["--format"])
        let map = try prepare(a)
        let snapshotter = map.snapshotter, camera = map.camera
        // Workers end in order before the process exits (see Snapshotter.close).
        defer { snapshotter.close() }
        // Opened before drawing, so an unwritable place is found before a long render.
        let file = try OutputFile(path: output)
        if format != .png || !snapshotter.options.debug.isEmpty {
            // JPEG and WebP are encoded from the whole image in memory, and debug drawing is
            // drawn on it.
            let snapshot: Snapshot
            do { snapshot = try snapshotter.snapshot(camera: camera) } catch let e as GLSnapError {
                if e.isInvalidOptions { throw UsageError("\(e)") }
                throw e
            }
            let bytes = try snapshot.data(format: format, png: png)
            try file.write(bytes)
            try file.commit()
            snapshot.warnings.forEach(warn)
            print("wrote \(output) (\(snapshot.image.width)x\(snapshot.image.height) pixels, \(bytes.count) bytes)")
            return 0
        }
        let (width, height) = try snapshotter.options.pixelSize(streamed: true)
        try write(snapshotter, camera: camera, to: file, width: width, height: height, png: png,
                  showProgress: !a.flags.contains("--quiet"))
        return 0
    }

    /// The map `render` draws, as the options describe it: the snapshotter with its style, size,
    /// ratio, backend and limits, and the camera (fitted with --bounds, --fit-data, --size auto).
    /// The caller closes the snapshotter.
    static func prepare(_ a: Arguments) throws -> (snapshotter: Snapshotter, camera: CameraOptions) {
        let sizeText = a.options["--size"] ?? "512x512"
        let autoSize = sizeText == "auto"
        var size = Size(width: 512, height: 512)
        if !autoSize { size = try BenchCommand.parseSize(sizeText) }
        let ratio = try a.double("--ratio") ?? 1
        var backend = Backend.osmesa
        if let b = a.options["--backend"] {
            guard let v = Backend(rawValue: b) else { throw UsageError("--backend must be osmesa or egl, got '\(b)'") }
            backend = v
        }
        var limits = Limits()
        if let m = try a.int("--max-size", in: 1...1_000_000) { limits.maxImageSide = m }
        if let p = try a.int("--piece", in: 16...65536) { limits.pieceSize = p }
        var camera = CameraOptions()
        if let c = try a.doubles("--center", count: 2) {
            camera.center = Coordinate(latitude: c[1], longitude: c[0])
        }
        camera.zoom = try a.double("--zoom")
        camera.bearing = try a.double("--bearing")
        camera.pitch = try a.double("--pitch")
        camera.roll = try a.double("--roll")
        camera.fieldOfView = try a.double("--fov", in: 0.01...179)
        let altitude = CameraOptions.maxCenterAltitude
        camera.centerAltitude = try a.double("--center-altitude", in: -altitude...altitude)
        let padding = EdgeInsets(all: try a.double("--padding", in: 0...BenchCommand.maxSizePoints) ?? 0)
        if let b = try a.doubles("--bounds", count: 4) {
            camera.bounds = CoordinateBounds(west: b[0], south: b[1], east: b[2], north: b[3])
            camera.padding = padding
        }
        // From a millimetre to a whole world's width per point.
        let resolution = try a.double("--resolution", in: 0.001...40_075_017)
        if autoSize {
            guard camera.bounds != nil || a.options["--fit-data"] != nil else {
                throw UsageError("--size auto needs --bounds or --fit-data SOURCE")
            }
            guard camera.zoom != nil || resolution != nil else { throw UsageError("--size auto needs --zoom or --resolution") }
        }
        // A broken tile or source is drawn around with a warning unless --strict asks for an error.
        var options = MapSnapshotOptions(size: size, pixelRatio: ratio, limits: limits,
                                         sourceErrors: a.flags.contains("--strict") ? .fail : .skip)
        options.styleErrors = options.sourceErrors
        if let list = a.options["--debug"] {
            switch MapDebugOptions.parse(list) {
            case .success(let debug): options.debug = debug
            case .failure(let error): throw UsageError("--debug: \(error)")
            }
        }
        if !autoSize {
            do { _ = try options.pixelSize(streamed: true) } catch { throw UsageError("\(error)") }
        }
        var configuration = Snapshotter.Configuration(backend: backend)
        if let folder = a.options["--http-cache"] {
            guard !folder.isEmpty else { throw UsageError("--http-cache needs a folder") }
            configuration.httpCachePath = (folder as NSString).appendingPathComponent(httpCacheFile)
        }
        let snapshotter = Snapshotter(options: options, configuration: configuration)
        if let style = a.options["--style"] {
            try snapshotter.setStyle(path: style)
        } else {
            try snapshotter.setStyle(path: try BundledExample.stylePath())
            if camera.center == nil && camera.bounds == nil && a.options["--fit-data"] == nil {
                camera.center = BundledExample.center
                camera.zoom = camera.zoom ?? BundledExample.zoom
            }
        }
        if let source = a.options["--fit-data"] {
            guard let b = snapshotter.dataBounds(source: source) else {
                throw UsageError("--fit-data: the style has no source \"\(source)\" with data bounds")
            }
            camera.bounds = b
            camera.padding = padding
        }
        if autoSize, let bounds = camera.bounds {
            let latitude = (bounds.southwest.latitude + bounds.northeast.latitude) / 2
            let zoom = try camera.zoom ?? resolution.map { ContentSize.zoom(metersPerPoint: $0, latitude: latitude) } ?? { throw UsageError("--size auto needs --zoom") }()
            guard zoom.isFinite, (0...24).contains(zoom) else {
                throw UsageError("--size auto: --resolution \(resolution ?? 0) meters per point is zoom \(zoom), outside 0...24")
            }
            let fit = ContentSize.fitting(bounds, zoom: zoom, padding: padding, bearing: camera.bearing ?? 0)
            options.size = fit.size
            do { _ = try options.pixelSize(streamed: true) } catch { throw UsageError("--size auto: \(error)") }
            snapshotter.options = options
            camera = CameraOptions(center: fit.camera.center, zoom: fit.camera.zoom, bearing: camera.bearing, pitch: camera.pitch,
                                   roll: camera.roll, fieldOfView: camera.fieldOfView, centerAltitude: camera.centerAltitude)
        }
        let glLimit = try snapshotter.maxFramebufferSize()
        guard limits.pieceSize <= glLimit || a.options["--piece"] == nil else {
            throw UsageError("--piece \(limits.pieceSize) is larger than the GL limit of \(glLimit) pixels")
        }
        if limits.pieceSize > glLimit {
            snapshotter.options.limits.pieceSize = glLimit
        }
        if camera.bounds != nil {
            // --bounds and --fit-data are fitted instead of --center/--zoom.
            camera.center = nil
            camera.zoom = nil
        }
        return (snapshotter, camera)
    }

    /// The SQLite file of `--http-cache` inside the folder.
    static let httpCacheFile = "glsnap-http-cache.sqlite"

    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("glsnap: warning: \(message)\n".utf8))
    }

    /// Renders band by band into a PNG file, so memory holds one band, not the image.
    static func write(_ snapshotter: Snapshotter, camera: CameraOptions, to file: OutputFile, width: Int, height: Int,
                      png: PNGEncoder.Options, showProgress: Bool) throws {
        var pending = [UInt8]()
        var written = 0
        var writeError: Error?
        let writer = try PNGRowWriter(width: width, height: height, options: png) { chunk in
            pending.append(contentsOf: chunk)
            if pending.count >= 1 << 20 {
                do { try file.write(pending) } catch { writeError = error }
                written += pending.count
                pending.removeAll(keepingCapacity: true)
            }
        }
        let start = Date()
        let snapshot = try snapshotter.render(camera: camera, progress: { done, total in
            guard showProgress, total > 1 else { return }
            let line = String(format: "\rrendering piece %d/%d (%.0f%%, %.1f s)", done, total, Double(done) / Double(total) * 100, Date().timeIntervalSince(start))
            FileHandle.standardError.write(Data(line.utf8))
        }) { band, _, rows in
            writer.write(rows: band, count: rows)
            if let writeError { throw writeError }
        }
        writer.finish()
        try file.write(pending)
        written += pending.count
        try file.commit()
        if showProgress, snapshot.timings.draw > 0, width * height > Int(snapshotter.options.limits.pieceSize * snapshotter.options.limits.pieceSize) {
            FileHandle.standardError.write(Data("\n".utf8))
        }
        snapshot.warnings.forEach(warn)
        print("wrote \(file.path) (\(width)x\(height) pixels, \(written) bytes)")
    }
}

struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

extension ImageFormat {
    /// The image format of `glsnap render`'s output: from `--format`, else from the output's extension.
    init(output: String, option: String?) throws {
        if let option {
            // As before: lowercase names only (`--format PNG` is refused).
            guard option == option.lowercased(), let f = ImageFormat(name: option) else {
                throw UsageError("--format must be png, jpeg or webp, got '\(option)'")
            }
            self = f
            return
        }
        let ext = (output as NSString).pathExtension
        if let f = ImageFormat(name: ext) {
            self = f
        } else if ext.isEmpty {
            // No extension (a FIFO, /dev/stdout, a name chosen so): PNG, as before.
            self = .png
        } else {
            throw UsageError("-o \(output): cannot write .\(ext.lowercased()) images; use .png, .jpg, .jpeg or .webp (or --format)")
        }
    }
}
