import Foundation
import GLSnap
import GLSnapGL
import GLSnapImage

enum BenchCommand {
    static let help = """
    usage: glsnap bench [--style STYLE.json] [--cameras CAMERAS.json | --count N --seed S]
                        [--size WxH] [--ratio R] [--workers N] [--format png|jpeg|webp|raw] [--compression 0-9, default 1]
                        [--warmup N] [--backend osmesa|egl] [--llvmpipe-threads N] [--shared-mesa] [--render-threads] [--cache-mib N]
                        [--save DIR] [--replay R [--replay-layers]] [--strict] [--json]

    Renders a list of cameras and reports throughput. Cameras come from a file in the format of
    shared/peers/cameras.py, or from a seeded walk over the style's data (default 30 cameras, seed 7).
    Without --style it uses the bundled example. Snapshots are rendered by N workers at once (each a
    thread with its own GL context; default 2), after a warm-up of --warmup snapshots (default: one
    per worker). Prints snapshots/s, latency p50/p95/p99, peak resident memory, output bytes and the
    time per stage; --json prints the same as one JSON object on the last line.
      --llvmpipe-threads  rasterizer threads per copy of Mesa's llvmpipe (LP_NUM_THREADS; default: the
                          cores divided among the workers, 0 when that is one or less)
      --shared-mesa       all workers share one copy of Mesa (and take turns rasterizing) instead of
                          each loading its own
      --render-threads    hand each frame to its worker's render thread (the library default) instead
                          of drawing on the bench's own --workers threads
      --cache-mib N       byte budget of each shared cache (decoded tiles, tile layers, rasters,
                          symbols) in MiB; default 256, 384, 256 and 128. Every 500 snapshots the RSS and the cached
                          bytes are recorded (for soak runs)
      --save DIR          also writes each camera's output to DIR/<index>.<format> (to compare runs)
      --replay R          instead of the run, the limit estimate: each camera's frame is built once
                          and drawn R more times from the same buffers on one worker, and its stages
                          timed apart (building again with warm caches, the draw calls with
                          GL_RASTERIZER_DISCARD, the draw calls, glFinish, glReadPixels, the encoder
                          alone on the same pixels), in the thread's CPU time; prints the mean over
                          the cameras of each camera's medians
      --replay-layers     with --replay, also each layer drawn alone: its draw calls and rasterizing
                          time and the share of the image it covers (the overdraw), by layer and type
      --strict            refuse a style with a value glsnap cannot use (by default it is left out, as
                          MapLibre does, with a warning as glsnap validate words it)
    """

    struct Camera { var options: CameraOptions }

    static func run(_ argv: [String]) throws -> Int32 {
        let a = try Arguments(argv, valued: ["--style", "--cameras", "--count", "--seed", "--size", "--ratio", "--workers",
                                             "--format", "--compression", "--warmup", "--backend", "--llvmpipe-threads", "--save",
                                             "--cache-mib", "--replay"],
                              flags: ["--help", "-h", "--json", "--shared-mesa", "--render-threads", "--strict", "--replay-layers"])
        if a.flags.contains("--help") || a.flags.contains("-h") {
            print(help)
            return 0
        }
        let size = try parseSize(a.options["--size"] ?? "512x512")
        let ratio = try a.double("--ratio") ?? 1
        let workers = try a.int("--workers", in: 1...64) ?? 2
        let format = a.options["--format"] ?? "png"
        guard ["png", "jpeg", "jpg", "webp", "raw"].contains(format) else { throw UsageError("--format must be png, jpeg, webp or raw") }
        // Throughput default: zlib level 1 without filters (measured: several times faster than
        // level 6 for about a third more bytes, still smaller than MapLibre Native's PNGs).
        var png = PNGEncoder.Options.fast
        if let c = a.options["--compression"] {
            guard let level = Int(c), (0...9).contains(level) else { throw UsageError("--compression must be 0-9") }
            png = PNGEncoder.Options(level: level)
        }
        var rasterizer = SoftwareRasterizer.automatic(workers: workers)
        if let t = a.options["--llvmpipe-threads"] {
            guard let n = Int(t), n >= 0 else { throw UsageError("--llvmpipe-threads must be a number >= 0") }
            rasterizer.threads = n
        }
        if a.flags.contains("--shared-mesa") { rasterizer.copies = 1 }
        var backend = Backend.osmesa
        if let b = a.options["--backend"] {
            guard let v = Backend(rawValue: b) else { throw UsageError("--backend must be osmesa or egl") }
            backend = v
        }
        var options = MapSnapshotOptions(size: size, pixelRatio: ratio)
        // Exactly `workers` threads call snapshot (below): each draws on its own thread.
        let configuration = Snapshotter.Configuration(backend: backend, workers: workers, rasterizer: rasterizer,
                                                      drawOnCallingThread: !a.flags.contains("--render-threads"))
        options.styleErrors = a.flags.contains("--strict") ? .fail : .skip
        if let c = a.options["--cache-mib"] {
            guard let mib = Int(c), (1...65536).contains(mib) else { throw UsageError("--cache-mib must be 1-65536") }
            options.limits.tileCacheBytes = mib << 20
            options.limits.geometryCacheBytes = mib << 20
            options.limits.rasterCacheBytes = mib << 20
            options.limits.symbolCacheBytes = mib << 20
        }
        do { _ = try options.pixelSize() } catch { throw UsageError("\(error)") }
        let snapshotter = Snapshotter(options: options, configuration: configuration)
        // Workers end in order before the process exits (see Snapshotter.close).
        defer { snapshotter.close() }
        try snapshotter.setStyle(path: try a.options["--style"] ?? BundledExample.stylePath())
        for w in snapshotter.styleWarnings { FileHandle.standardError.write(Data("glsnap: warning: \(w)\n".utf8)) }

        var cameras: [CameraOptions]
        if let file = a.options["--cameras"] {
            cameras = try loadCameras(file)
        } else {
            let count = try a.int("--count", in: 1...10_000_000) ?? 30
            let seed = UInt64(try a.int("--seed", in: 0...Int.max) ?? 7)
            cameras = try walk(snapshotter, count: count, seed: seed)
        }
        guard !cameras.isEmpty else { throw UsageError("no cameras to render") }
        if let r = try a.int("--replay", in: 1...10_000) {
            try replay(snapshotter, cameras: cameras, repetitions: r, format: format, png: png, json: a.flags.contains("--json"),
                       perLayer: a.flags.contains("--replay-layers"))
            return 0
        }
        let warmup = try a.int("--warmup", in: 0...100_000) ?? workers

        // Warm-up: contexts, programs and caches of the first views, rendered by `workers` threads
        // at once as the measured run is, so every worker's context is made before it.
        if warmup > 0 {
            let first = (0..<warmup).map { cameras[$0 % cameras.count] }
            _ = try measure(snapshotter, cameras: first, workers: workers, format: format, png: png, quiet: true)
        }
        let save = a.options["--save"].map { URL(fileURLWithPath: $0) }
        if let save { try FileManager.default.createDirectory(at: save, withIntermediateDirectories: true) }
        let results = try measure(snapshotter, cameras: cameras, workers: workers, format: format, png: png, save: save)
        report(results, json: a.flags.contains("--json"), workers: workers, size: size, ratio: ratio)
        return 0
    }

    struct Result {
        var latency: [Double] = []
        var bytes: [Int] = []
        var timings = SnapshotTimings()
        var encode = 0.0
        var wall = 0.0
        /// Process CPU seconds (user and system, all threads) over the measured snapshots.
        var cpu = 0.0
        var firstOutput: [UInt8]?
        /// Resident memory and cached bytes every 500 snapshots (for soak runs).
        var rssSamples: [(done: Int, rss: Int, cached: Int)] = []
    }

    /// Resident memory now, from /proc/self/statm (0 where that is unavailable).
    static func currentRSS() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func measure(_ snapshotter: Snapshotter, cameras: [CameraOptions], workers: Int, format: String,
                        png: PNGEncoder.Options, save: URL? = nil, quiet: Bool = false) throws -> Result {
        var result = Result()
        // nil: raw pixels.
        let encoder = ImageFormat(name: format).map { ImageEncoder(format: $0, png: png) }
        let lock = NSLock()
        var next = 0
        var failure: Error?
        var done = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let cpuStart = processCPUSeconds()
        let interactive = !quiet && isatty(2) != 0
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                while true {
                    lock.lock()
                    let i = next
                    next += 1
                    lock.unlock()
                    guard i < cameras.count, failure == nil else { return }
                    do {
                        let t0 = DispatchTime.now().uptimeNanoseconds
                        let snap = try snapshotter.snapshot(camera: cameras[i])
                        let t1 = DispatchTime.now().uptimeNanoseconds
                        let out = try encoder?.encode(snap.image) ?? snap.image.pixels
                        let t2 = DispatchTime.now().uptimeNanoseconds
                        if let save {
                            try Data(out).write(to: save.appendingPathComponent("\(i).\(format)"))
                        }
                        lock.lock()
                        result.latency.append(Double(t2 - t0) / 1e9)
                        result.bytes.append(out.count)
                        result.encode += Double(t2 - t1) / 1e9
                        result.timings.tileLoad += snap.timings.tileLoad
                        result.timings.layout += snap.timings.layout
                        result.timings.placement += snap.timings.placement
                        result.timings.upload += snap.timings.upload
                        result.timings.draw += snap.timings.draw
                        result.timings.readback += snap.timings.readback
                        done += 1
                        // Progress: in place on a terminal, else a line per tenth of the run.
                        let step = interactive ? 10 : max(10, cameras.count / 10)
                        if !quiet, done % step == 0 || done == cameras.count {
                            let text = "\(done)/\(cameras.count) snapshots, RSS \(currentRSS() >> 20) MiB"
                            FileHandle.standardError.write(Data((interactive ? "\r  \(text)" : "  \(text)\n").utf8))
                        }
                        if done % 500 == 0 {
                            let c = snapshotter.cachedBytes
                            result.rssSamples.append((done, currentRSS(), c.tiles + c.geometry + c.rasters + c.symbols))
                        }
                        lock.unlock()
                    } catch {
                        lock.lock()
                        failure = error
                        lock.unlock()
                    }
                }
            }
        }
        group.wait()
        if interactive { FileHandle.standardError.write(Data("\n".utf8)) }
        if let failure { throw failure }
        result.wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        result.cpu = processCPUSeconds() - cpuStart
        return result
    }

    /// User and system CPU seconds of the whole process so far.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func report(_ r: Result, json: Bool, workers: Int, size: Size, ratio: Double) {
        let n = Double(r.latency.count)
        let sorted = r.latency.sorted()
        func pct(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((p * Double(sorted.count - 1)).rounded(.down)))] * 1000 }
        let perSecond = n / r.wall
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let rss = Int(usage.ru_maxrss) * 1024
        let stages: [(String, Double)] = [("tile_load", r.timings.tileLoad), ("layout", r.timings.layout), ("placement", r.timings.placement), ("upload", r.timings.upload), ("draw", r.timings.draw),
                                          ("readback", r.timings.readback), ("encode", r.encode)]
        let bytesAvg = r.bytes.reduce(0, +) / max(1, r.bytes.count)
        print(String(format: "glsnap: %d snapshots of %gx%g @%gx, %d workers: %.2f snapshots/s, p50 %.1f ms, p95 %.1f ms, p99 %.1f ms",
                     r.latency.count, size.width, size.height, ratio, workers, perSecond, pct(0.5), pct(0.95), pct(0.99)))
        let cores = r.cpu / max(r.wall, 1e-9)
        print(String(format: "peak RSS %d MiB, output %d bytes on average, CPU %.1f ms per snapshot (%.2f cores busy)",
                     rss / 1_048_576, bytesAvg, r.cpu / n * 1000, cores))
        if !r.rssSamples.isEmpty {
            print("RSS (cached bytes) by snapshots done: "
                  + r.rssSamples.map { "\($0.done): \($0.rss >> 20) MiB (\($0.cached >> 20) MiB)" }.joined(separator: ", "))
        }
        print("time per snapshot: " + stages.map { String(format: "%@ %.1f ms", $0.0, $0.1 / n * 1000) }.joined(separator: ", "))
        if json {
            var fields = [
                "\"renderer\": \"glsnap (\(workers) workers)\"", "\"n\": \(r.latency.count)",
                String(format: "\"snapshots_per_s\": %.2f", perSecond),
                String(format: "\"ms_p50\": %.1f", pct(0.5)), String(format: "\"ms_p95\": %.1f", pct(0.95)),
                String(format: "\"ms_p99\": %.1f", pct(0.99)), "\"peak_rss_bytes\": \(rss)", "\"png_bytes_avg\": \(bytesAvg)",
                String(format: "\"cpu_ms_per_snapshot\": %.2f", r.cpu / n * 1000), String(format: "\"cores_busy\": %.2f", cores),
            ]
            fields += stages.map { String(format: "\"ms_%@\": %.2f", $0.0, $0.1 / n * 1000) }
            print("{" + fields.joined(separator: ", ") + "}")
        }
    }

    /// `--replay`: each stage of each camera's frame timed apart (`Snapshotter.replayFrame`), and
    /// the encoder alone on its pixels; prints the means over the cameras of the per-camera medians.
    static func replay(_ snapshotter: Snapshotter, cameras: [CameraOptions], repetitions: Int, format: String,
                       png: PNGEncoder.Options, json: Bool, perLayer: Bool) throws {
        var sums: [(String, Double)] = [("build", 0), ("issue_discarded", 0), ("issue", 0), ("rasterize", 0), ("readback", 0), ("encode", 0)]
        // Per layer id: its type, and sums of issue, rasterize and coverage over the cameras.
        var layers: [String: (type: String, issue: Double, rasterize: Double, coverage: Double)] = [:]
        var layerOrder: [String] = []
        var masks = (issue: 0.0, rasterize: 0.0)
        for camera in cameras {
            let t = try snapshotter.replayFrame(camera: camera, repetitions: repetitions, perLayer: perLayer)
            masks.issue += t.masks.issue
            masks.rasterize += t.masks.rasterize
            for l in t.layers {
                if layers[l.id] == nil { layerOrder.append(l.id) }
                let old = layers[l.id] ?? (l.type, 0, 0, 0)
                layers[l.id] = (l.type, old.issue + l.issue, old.rasterize + l.rasterize, old.coverage + l.coverage)
            }
            var encodes: [Double] = []
            for _ in 0..<repetitions {
                let t0 = FrameReplayTimings.threadCPUSeconds()
                switch format {
                case "png": _ = try PNGEncoder(options: png).encode(t.image)
                case "jpeg", "jpg": _ = try JPEGEncoder().encode(t.image)
                case "webp": _ = try WebPEncoder().encode(t.image)
                default: break
                }
                encodes.append(FrameReplayTimings.threadCPUSeconds() - t0)
            }
            encodes.sort()
            let values = [t.build, t.issueDiscarded, t.issue, t.rasterize, t.readback, encodes[encodes.count / 2]]
            for i in sums.indices { sums[i].1 += values[i] }
        }
        let n = Double(cameras.count)
        if perLayer {
            print("each layer drawn alone, mean per frame (issue and rasterize in ms, coverage of the image):")
            var byType: [String: (issue: Double, rasterize: Double, coverage: Double)] = [:]
            for id in layerOrder {
                let l = layers[id]!
                print("  \(pad(id, 28)) \(pad(l.type, 15))" + String(format: " issue %6.3f  rasterize %6.3f  coverage %5.3f",
                                                                             l.issue / n * 1000, l.rasterize / n * 1000, l.coverage / n))
                let old = byType[l.type] ?? (0, 0, 0)
                byType[l.type] = (old.issue + l.issue, old.rasterize + l.rasterize, old.coverage + l.coverage)
            }
            print(String(format: "  one set of clipping masks: issue %.3f, rasterize %.3f", masks.issue / n * 1000, masks.rasterize / n * 1000))
            print("by type (coverage summed: the image covered that many times over):")
            for (type, v) in byType.sorted(by: { $0.value.rasterize > $1.value.rasterize }) {
                print("  \(pad(type, 15))" + String(format: " issue %6.3f  rasterize %6.3f  coverage %5.3f",
                                                      v.issue / n * 1000, v.rasterize / n * 1000, v.coverage / n))
            }
        }
        print("replay of \(cameras.count) frames, \(repetitions) times each, per frame: "
              + sums.map { String(format: "%@ %.2f ms", $0.0, $0.1 / n * 1000) }.joined(separator: ", "))
        if json {
            print("{" + (["\"replayed_frames\": \(cameras.count)", "\"repetitions\": \(repetitions)"]
                         + sums.map { String(format: "\"ms_%@\": %.3f", $0.0, $0.1 / n * 1000) }).joined(separator: ", ") + "}")
        }
    }

    private static func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s : s + String(repeating: " ", count: width - s.count) }

    /// Largest `--size` side in points (images are further bounded in pixels by `Limits.maxImageSide`).
    static let maxSizePoints = 1_000_000.0

    static func parseSize(_ s: String) throws -> Size {
        let parts = s.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Double($0) }
        guard parts.count == 2, let w = parts[0], let h = parts[1] else {
            throw UsageError("--size expects WIDTHxHEIGHT, got '\(s)'")
        }
        do {
            return Size(width: try CheckedNumber.double(w, "--size width", in: 1...maxSizePoints),
                        height: try CheckedNumber.double(h, "--size height", in: 1...maxSizePoints))
        } catch { throw UsageError(error.plainMessage) }
    }

    /// Cameras in shared/peers/cameras.py's format: [{"center": [lon, lat], "zoom", "bearing", "pitch"}].
    static func loadCameras(_ path: String) throws -> [CameraOptions] {
        guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("\(path): no such file") }
        guard let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw CLIError("\(path): expected a JSON array of cameras")
        }
        return try list.enumerated().map { i, c in
            guard let center = c["center"] as? [Double], center.count == 2, let zoom = c["zoom"] as? Double else {
                throw CLIError("\(path): camera \(i) needs \"center\": [lon, lat] and \"zoom\"")
            }
            return CameraOptions(center: Coordinate(latitude: center[1], longitude: center[0]), zoom: zoom,
                                 bearing: c["bearing"] as? Double ?? 0, pitch: c["pitch"] as? Double ?? 0)
        }
    }

    /// A seeded walk like cameras.py: centers in the middle 60% of the data's bounds, zoom 0.5-3
    /// above its minzoom.
    static func walk(_ snapshotter: Snapshotter, count: Int, seed: UInt64) throws -> [CameraOptions] {
        var rng = SplitMix64(seed: seed)
        guard let (b, minzoom) = snapshotter.dataExtent() else {
            let c = snapshotter.styleCamera
            return Array(repeating: c, count: count)
        }
        let w = b.southwest.longitude, e = b.northeast.longitude, s = b.southwest.latitude, n = b.northeast.latitude
        return (0..<count).map { _ in
            let lon = w + (e - w) * (0.2 + 0.6 * rng.nextDouble())
            let lat = s + (n - s) * (0.2 + 0.6 * rng.nextDouble())
            return CameraOptions(center: Coordinate(latitude: lat, longitude: lon), zoom: Double(minzoom) + 0.5 + 2.5 * rng.nextDouble())
        }
    }
}

/// A small seeded generator (SplitMix64), so walks are the same on every machine.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func nextDouble() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
