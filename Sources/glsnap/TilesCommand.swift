import Foundation
import GLSnap
import GLSnapData
import GLSnapGL
import GLSnapImage

enum TilesCommand {
    static let help = """
    usage: glsnap tiles --style STYLE.json (--bounds W,S,E,N | --fit-data SOURCE) --minzoom A --maxzoom B
                        [--tile-size 256|512] [--ratio R] [--format png|jpeg|webp] [--metatile N]
                        [--shard I/N] [--backend osmesa|egl] [--strict] [--quiet] -o OUT
           glsnap tiles merge A B ... -o OUT

    Renders a raster tile pyramid: every tile of zooms A..B that reaches the bounds, in
    tileserver-gl's raster tile convention (that of glsnap serve's /styles/{id}[/512]/{z}/{x}/{y}),
    into OUT: an .mbtiles file, a .pmtiles file (v3, clustered) or a folder of {z}/{x}/{y}.png.
    Labels are placed once per level (per block of 64 tiles of 512 px on larger levels), so
    tiles put side by side equal one render of the same area, labels included.
      --style      style file (MapLibre/Mapbox GL style spec v8)
      --bounds     west,south,east,north of the tiles to render
      --fit-data   a source of the style whose data (GeoJSON features or declared bounds) to cover
      --minzoom    lowest zoom level (0-24)
      --maxzoom    highest zoom level (minzoom-24)
      --tile-size  256 or 512 points (default 512)
      --ratio      pixel ratio: tiles are tile-size x ratio pixels (default 1; whole pixels only)
      --format     png (default), jpeg or webp
      --metatile   tiles per side rendered in one frame and sliced (default 4, at most 16)
      --shard      I/N: render only the I-th (1..N) of N fixed shares of the metatiles; the shards
                   of one pyramid (same options, --metatile included) together are all of it
                   (merge them with glsnap tiles merge)
      --strict     fail (exit 1) on a source or tile that cannot be read, naming it
      --quiet      no progress line (it is only shown on a terminal anyway)
      -o           output: NAME.mbtiles, NAME.pmtiles or a folder
    An interrupted run (Ctrl-C, a crash, kill -9) resumes when run again with the same options:
    the tiles written are kept and at most the metatile in flight is rendered again. MBTiles
    commit each metatile as one transaction; PMTiles collect tiles in .NAME.pmtiles.glsnap-tiles
    beside OUT and assemble the archive at the end; a folder's tiles are each written whole.

    merge: combines archives (the shards of one pyramid, in any of the three forms) into OUT;
    the metadata is the first input's, with the bounds and zooms of all.
    """

    static func run(_ argv: [String]) throws -> Int32 {
        if argv.first == "merge" { return try merge(Array(argv.dropFirst())) }
        let a = try Arguments(argv, valued: ["--style", "--bounds", "--fit-data", "--minzoom", "--maxzoom", "--tile-size", "--ratio",
                                             "--format", "--metatile", "--shard", "--backend", "-o", "--output"],
                              flags: ["--help", "-h", "--quiet", "--strict"])
        if a.flags.contains("--help") || a.flags.contains("-h") {
            print(help)
            return 0
        }
        guard a.positionals.isEmpty else { throw UsageError("unexpected argument '\(a.positionals[0])'") }
        guard let stylePath = a.options["--style"] else { throw UsageError("tiles needs --style STYLE.json") }
        guard let output = a.options["-o"] ?? a.options["--output"], !output.isEmpty else { throw UsageError("tiles needs -o OUT") }
        guard (a.options["--bounds"] == nil) != (a.options["--fit-data"] == nil) else {
            throw UsageError("tiles needs one of --bounds W,S,E,N and --fit-data SOURCE")
        }
        guard let minZoom = try a.int("--minzoom", in: 0...TilePyramid.maxZoom) else { throw UsageError("tiles needs --minzoom") }
        guard let maxZoom = try a.int("--maxzoom", in: minZoom...TilePyramid.maxZoom) else {
            throw UsageError(a.options["--maxzoom"] == nil ? "tiles needs --maxzoom" : "--maxzoom must be within \(minZoom)...\(TilePyramid.maxZoom)")
        }
        let tileSize = try a.int("--tile-size", in: 256...512) ?? 512
        guard tileSize == 256 || tileSize == 512 else { throw UsageError("--tile-size must be 256 or 512, got \(tileSize)") }
        let ratio = try a.double("--ratio") ?? 1
        let format = try ImageFormat(output: "x.png", option: a.options["--format"])
        let limits = Limits()
        let metatile = try a.int("--metatile", in: 1...limits.maxMetatile) ?? 4
        let shard = try parseShard(a.options["--shard"])
        var backend = Backend.osmesa
        if let b = a.options["--backend"] {
            guard let v = Backend(rawValue: b) else { throw UsageError("--backend must be osmesa or egl, got '\(b)'") }
            backend = v
        }

        let options = MapSnapshotOptions(size: Size(width: Double(tileSize), height: Double(tileSize)), pixelRatio: ratio,
                                         limits: limits, sourceErrors: a.flags.contains("--strict") ? .fail : .skip)
        let snapshotter = Snapshotter(options: options, configuration: .init(backend: backend))
        defer { snapshotter.close() }
        try snapshotter.setStyle(path: stylePath)
        let bounds: CoordinateBounds
        if let b = try a.doubles("--bounds", count: 4) {
            bounds = CoordinateBounds(west: b[0], south: b[1], east: b[2], north: b[3])
        } else {
            let source = a.options["--fit-data"] ?? ""
            guard let b = snapshotter.dataBounds(source: source) else {
                throw UsageError("--fit-data: the style has no source \"\(source)\" with data bounds")
            }
            bounds = b
        }
        let pyramid: TilePyramid
        do {
            pyramid = try TilePyramid(bounds: bounds, minZoom: minZoom, maxZoom: maxZoom, tileSize: tileSize, pixelRatio: ratio,
                                      metatile: metatile, limits: limits)
        } catch { throw UsageError(error.plainMessage) }
        let glLimit = try snapshotter.maxFramebufferSize()
        if limits.pieceSize > glLimit { snapshotter.options.limits.pieceSize = glLimit }

        let archiveFormat = format.archiveName
        let metadata = pyramid.archiveMetadata(snapshotter: snapshotter, stylePath: stylePath, format: archiveFormat)
        let writer = try TileArchive.writer(path: output, format: archiveFormat)
        let existing = try writer.existingTiles()
        if let started = try writer.startedMetadata() {
            let was = started.extra[runKey], now = metadata.extra[runKey]
            guard was == now || (was == nil && existing.isEmpty) else {
                throw CLIError("\(output) was started with other options (\(was ?? "not by glsnap tiles")); this run is \(now ?? ""): remove it or run with the same options")
            }
        } else if !existing.isEmpty {
            throw CLIError("\(output) holds tiles not written by glsnap tiles: remove it or choose another output")
        }
        try writer.start(metadata)

        let renderer = PyramidRenderer(snapshotter: snapshotter, pyramid: pyramid, encode: ImageEncoder(format: format).encode)
        let metatiles = pyramid.metatiles(shard: shard.index, of: shard.count)
        let total = metatiles.reduce(0) { $0 + $1.x.count * $1.y.count }
        let progress = Progress(total: total, show: !a.flags.contains("--quiet") && isatty(2) != 0)
        let (rendered, kept) = try renderer.run(metatiles, into: writer) { metatile, rendered in
            let n = metatile.x.count * metatile.y.count
            if rendered { progress.done(n) } else { progress.skip(n) }
        }
        progress.end()
        try writer.finish(metadata)
        renderer.warnings.forEach(RenderCommand.warn)
        let seconds = progress.elapsed
        print(String(format: "wrote %@ (%d tiles rendered, %d kept, %.1f s, %.2f tiles/s)", output, rendered, kept, seconds,
                     seconds > 0 ? Double(rendered) / seconds : 0))
        return 0
    }

    /// The metadata row that records the options a pyramid was started with.
    static let runKey = TilePyramid.runKey

    /// `I/N` with 1 <= I <= N; nil: the whole pyramid (1/1).
    static func parseShard(_ text: String?) throws -> (index: Int, count: Int) {
        guard let text else { return (1, 1) }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000, (1...n).contains(i) else {
            throw UsageError("--shard expects I/N with 1 <= I <= N (e.g. 2/8), got '\(text)'")
        }
        return (i, n)
    }

    // MARK: merge

    static func merge(_ argv: [String]) throws -> Int32 {
        let a = try Arguments(argv, valued: ["-o", "--output"], flags: ["--help", "-h"])
        if a.flags.contains("--help") || a.flags.contains("-h") {
            print(help)
            return 0
        }
        guard let output = a.options["-o"] ?? a.options["--output"], !output.isEmpty else { throw UsageError("tiles merge needs -o OUT") }
        guard !a.positionals.isEmpty else { throw UsageError("tiles merge needs the archives to merge") }
        let readers = try a.positionals.map { try TileArchive.reader(path: $0) }
        var all: [TileArchiveMetadata] = []
        for (path, reader) in zip(a.positionals, readers) {
            guard let m = reader.metadata else {
                throw CLIError("\(path) has no tile metadata (format, bounds, zooms): is it an archive glsnap tiles wrote?")
            }
            if let first = all.first {
                guard m.format == first.format else {
                    throw CLIError("\(path) holds \(m.format) tiles, \(a.positionals[0]) \(first.format): archives of one format only")
                }
                if m.extra[runKey] != first.extra[runKey] {
                    RenderCommand.warn("\(path) was rendered with other options than \(a.positionals[0]) (\(m.extra[runKey] ?? "unknown"))")
                }
            }
            all.append(m)
        }
        guard let metadata = TileArchive.mergedMetadata(all) else { throw UsageError("tiles merge needs the archives to merge") }
        let count = try TileArchive.merge(readers, into: try TileArchive.writer(path: output, format: metadata.format), metadata: metadata)
        print("wrote \(output) (\(count) tiles from \(readers.count) archives)")
        return 0
    }
}

/// The progress line of `glsnap tiles` on a terminal: tiles done, tiles per second, time left.
final class Progress {
    let total: Int
    let show: Bool
    private let start = Date()
    private var finished = 0, skipped = 0, rendered = 0
    private var lastShown = Date.distantPast

    init(total: Int, show: Bool) { self.total = total; self.show = show }

    var elapsed: Double { Date().timeIntervalSince(start) }

    func skip(_ n: Int) { finished += n; skipped += n; draw(force: false) }
    func done(_ n: Int) { finished += n; rendered += n; draw(force: false) }

    func end() {
        guard show else { return }
        draw(force: true)
        FileHandle.standardError.write(Data("\n".utf8))
    }

    private func draw(force: Bool) {
        guard show, force || Date().timeIntervalSince(lastShown) >= 0.25 else { return }
        lastShown = Date()
        let rate = elapsed > 0 ? Double(rendered) / elapsed : 0
        let left = rate > 0 ? Double(total - finished) / rate : 0
        let percent = total > 0 ? Double(finished) * 100 / Double(total) : 100
        let line = String(format: "\rtiles %d/%d (%.0f%%), %.1f tiles/s, %d:%02d left ", finished, total, percent, rate,
                          Int(left) / 60, Int(left) % 60)
        FileHandle.standardError.write(Data(line.utf8))
    }
}
