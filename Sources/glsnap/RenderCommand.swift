import Foundation
import GLSnap
import GLSnapGL
import GLSnapImage

enum RenderCommand {
    static let help = """
    usage: glsnap render [--style STYLE.json] [--center LON,LAT --zoom Z] [--bearing B] [--pitch P]
                         [--bounds W,S,E,N [--padding P]] [--size WxH] [--ratio R]
                         [--backend osmesa|egl] [--compression 0-9] [-o OUT.png]

    Renders one map image. Without --style it renders the bundled example (Chicago, from
    OpenStreetMap data) so the command works offline. Camera values not given come from the style.
      --style       style file (MapLibre/Mapbox GL style spec v8)
      --center      longitude,latitude (negative values are fine: --center -87.65,41.87)
      --zoom        zoom level 0-24
      --bearing     degrees clockwise from north
      --pitch       degrees from straight down, 0-85
      --bounds      west,south,east,north: fit these bounds instead of --center/--zoom
      --padding     points of padding around --bounds (default 0)
      --size        width x height in points (default 512x512)
      --ratio       pixel ratio: the image is floor(width*ratio) x floor(height*ratio) pixels (default 1)
      --backend     osmesa (default, needs no display) or egl (GPU where present, else surfaceless Mesa)
      --compression PNG zlib level (default 6)
      -o            output file (default map.png)
    """

    static func run(_ argv: [String]) throws -> Int32 {
        let a = try Arguments(argv, valued: ["--style", "--center", "--zoom", "--bearing", "--pitch", "--bounds", "--padding",
                                             "--size", "--ratio", "--backend", "--compression", "-o", "--output"],
                              flags: ["--help", "-h"])
        if a.flags.contains("--help") || a.flags.contains("-h") {
            print(help)
            return 0
        }
        guard a.positionals.isEmpty else { throw UsageError("unexpected argument '\(a.positionals[0])'") }
        var size = Size(width: 512, height: 512)
        if let s = a.options["--size"] {
            let parts = s.lowercased().split(separator: "x").map { Double($0) }
            guard parts.count == 2, let w = parts[0], let h = parts[1], w.isFinite, h.isFinite else {
                throw UsageError("--size expects WIDTHxHEIGHT, got '\(s)'")
            }
            guard w >= 1, h >= 1 else { throw UsageError("--size \(s): width and height must be at least 1") }
            size = Size(width: w, height: h)
        }
        let ratio = try a.double("--ratio") ?? 1
        var backend = Backend.osmesa
        if let b = a.options["--backend"] {
            guard let v = Backend(rawValue: b) else { throw UsageError("--backend must be osmesa or egl, got '\(b)'") }
            backend = v
        }
        var png = PNGEncoder.Options.standard
        if let c = a.options["--compression"] {
            guard let level = Int(c), (0...9).contains(level) else { throw UsageError("--compression must be 0-9, got '\(c)'") }
            png = PNGEncoder.Options(compressionLevel: level, filter: png.filter)
        }
        var camera = CameraOptions()
        if let c = try a.doubles("--center", count: 2) {
            camera.center = Coordinate(latitude: c[1], longitude: c[0])
        }
        camera.zoom = try a.double("--zoom")
        camera.bearing = try a.double("--bearing")
        camera.pitch = try a.double("--pitch")
        if let b = try a.doubles("--bounds", count: 4) {
            camera.bounds = CoordinateBounds(west: b[0], south: b[1], east: b[2], north: b[3])
            camera.padding = EdgeInsets(all: try a.double("--padding") ?? 0)
        }
        let output = a.options["-o"] ?? a.options["--output"] ?? "map.png"

        let options = MapSnapshotOptions(size: size, pixelRatio: ratio, backend: backend)
        do {
            _ = try options.pixelSize()
        } catch {
            throw UsageError("\(error)")
        }
        let snapshotter = Snapshotter(options: options)
        if let style = a.options["--style"] {
            try snapshotter.setStyle(path: style)
        } else {
            try snapshotter.setStyle(path: try BundledExample.stylePath())
            if camera.center == nil && camera.bounds == nil {
                camera.center = BundledExample.center
                camera.zoom = camera.zoom ?? BundledExample.zoom
            }
        }
        snapshotter.setCamera(camera)
        let snapshot = try snapshotter.snapshot()
        let bytes = try snapshot.pngData(options: png)
        guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else {
            throw CLIError("cannot write \(output)")
        }
        print("wrote \(output) (\(snapshot.image.width)x\(snapshot.image.height) pixels, \(bytes.count) bytes)")
        return 0
    }
}

struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
