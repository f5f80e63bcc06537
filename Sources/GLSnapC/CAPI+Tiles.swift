import Foundation
import GLSnap
import GLSnapData
import GLSnapImage
import GLSnapStyle

// Raster tile pyramids through the C ABI: `glsnap tiles`' plan (the fixed list of metatiles) and
// its rendering of chosen metatiles into an archive, for callers that spread one pyramid over
// processes or machines (python/glsnap/ray_tiles.py). The tiles are those of `glsnap tiles`:
// the same `TilePyramid`, `PyramidRenderer` and encoders, so any split gives the same bytes.

/// The pyramid a tiles call names (glsnap.h: `glsnap_tiles_plan`), read from its JSON text.
struct PyramidRequest: Equatable {
    var pyramid: TilePyramid
    var format: ImageFormat
    /// The style file the metadata is named after and whose bytes identify the run (as `glsnap
    /// tiles --style`); nil: the style's own name.
    var stylePath: String?
    var shard: (index: Int, count: Int)

    static func == (a: PyramidRequest, b: PyramidRequest) -> Bool {
        a.pyramid == b.pyramid && a.format == b.format && a.stylePath == b.stylePath && a.shard == b.shard
    }

    init(json p: UnsafePointer<CChar>?, snapshotter: Snapshotter) throws {
        let object: [String: JSON]
        do {
            guard let o = try JSON.parse(try text(p, "pyramid")).objectValue else { throw CallError(.invalidArgument, "") }
            object = o
        } catch {
            throw CallError(.invalidArgument, "pyramid must be a JSON object ({\"bounds\": [W, S, E, N], \"minzoom\": A, \"maxzoom\": B, ...})")
        }
        let known: Set<String> = ["bounds", "fitData", "minzoom", "maxzoom", "tileSize", "ratio", "metatile", "format", "stylePath", "shard"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw CallError(.invalidArgument, "pyramid: unknown key \"\(unknown)\" (known: \(known.sorted().joined(separator: ", ")))")
        }
        func integer(_ key: String, default value: Int?) throws -> Int {
            guard let v = object[key] else {
                guard let value else { throw CallError(.invalidArgument, "pyramid: \"\(key)\" is missing") }
                return value
            }
            guard let n = v.numberValue, n == n.rounded(), abs(n) < 1e9 else {
                throw CallError(.invalidArgument, "pyramid: \"\(key)\" must be a whole number")
            }
            return Int(n)
        }
        let bounds: CoordinateBounds
        switch (object["bounds"], object["fitData"]) {
        case let (b?, nil):
            guard let values = b.arrayValue?.compactMap(\.numberValue), values.count == 4, b.arrayValue?.count == 4 else {
                throw CallError(.invalidArgument, "pyramid: \"bounds\" must be [west, south, east, north] in degrees")
            }
            bounds = CoordinateBounds(west: values[0], south: values[1], east: values[2], north: values[3])
        case let (nil, source?):
            guard let name = source.stringValue else { throw CallError(.invalidArgument, "pyramid: \"fitData\" must be a source name") }
            guard let b = snapshotter.dataBounds(source: name) else {
                throw CallError(.invalidArgument, "pyramid: the style has no source \"\(name)\" with data bounds (fitData)")
            }
            bounds = b
        default:
            throw CallError(.invalidArgument, "pyramid needs one of \"bounds\" and \"fitData\"")
        }
        let ratio: Double
        if let r = object["ratio"] {
            guard let n = r.numberValue else { throw CallError(.invalidArgument, "pyramid: \"ratio\" must be a number") }
            ratio = n
        } else { ratio = 1 }
        let formatName = object["format"].map { $0.stringValue ?? "" } ?? "png"
        guard let format = ImageFormat(name: formatName) else {
            throw CallError(.invalidArgument, "pyramid: \"format\" must be \"png\", \"jpeg\" or \"webp\", not \"\(formatName)\"")
        }
        self.format = format
        stylePath = try object["stylePath"].map {
            guard let s = $0.stringValue else { throw CallError(.invalidArgument, "pyramid: \"stylePath\" must be a string") }
            return s
        }
        if let s = object["shard"] {
            guard let pair = s.arrayValue?.compactMap(\.numberValue), pair.count == 2, pair[0] == pair[0].rounded(),
                  pair[1] == pair[1].rounded(), pair[1] >= 1, pair[1] <= 1_000_000, pair[0] >= 1, pair[0] <= pair[1] else {
                throw CallError(.invalidArgument, "pyramid: \"shard\" must be [I, N] with 1 <= I <= N")
            }
            shard = (Int(pair[0]), Int(pair[1]))
        } else { shard = (1, 1) }
        pyramid = try TilePyramid(bounds: bounds, minZoom: try integer("minzoom", default: nil), maxZoom: try integer("maxzoom", default: nil),
                                  tileSize: try integer("tileSize", default: 512), pixelRatio: ratio,
                                  metatile: try integer("metatile", default: 4), limits: snapshotter.options.limits)
    }

    /// The archive's name for the format (`jpg` for JPEG, as MBTiles writes it).
    var archiveFormat: String { format.archiveName }

    /// What `glsnap tiles` records in an archive it starts: the style's name (else the style file's),
    /// the bounds and zooms, the style's attribution, and `glsnap_run`, the options that decide the
    /// tiles' pixels (checked when a run resumes). Keep in step with `TilesCommand.runMetadata`.
    func metadata(_ snapshotter: Snapshotter) -> TileArchiveMetadata {
        pyramid.archiveMetadata(snapshotter: snapshotter, stylePath: stylePath ?? "", format: archiveFormat)
    }
}

/// What a snapshotter keeps between tiles calls: the pyramid last asked for, its metatiles, and
/// one `PyramidRenderer` per zoom level, so a caller that goes depth first (a metatile, then the
/// ones below it) keeps each level's placement region instead of placing it again.
final class TilesState {
    static let runKey = TilePyramid.runKey
    let request: PyramidRequest
    let metatiles: [MetaTile]
    var renderers: [Int: PyramidRenderer] = [:]
    /// Calls on one snapshotter's pyramid run one at a time (a PyramidRenderer is not thread-safe).
    let lock = NSLock()

    init(request: PyramidRequest) {
        self.request = request
        metatiles = request.pyramid.metatiles
    }

    func renderer(zoom: Int, snapshotter: Snapshotter) -> PyramidRenderer {
        if let r = renderers[zoom] { return r }
        let r = PyramidRenderer(snapshotter: snapshotter, pyramid: request.pyramid, encode: ImageEncoder(format: request.format).encode)
        renderers[zoom] = r
        return r
    }
}

extension SnapshotterHandle {
    /// The state for `request`, made anew when the pyramid, the style or the options changed.
    func tilesState(_ request: PyramidRequest) throws -> TilesState {
        try styleLock.withLock {
            if let t = tiles, t.request == request { return t }
            // As `glsnap tiles`: pieces no larger than the GL driver's framebuffer.
            let glLimit = try snapshotter.maxFramebufferSize()
            if snapshotter.options.limits.pieceSize > glLimit { snapshotter.options.limits.pieceSize = glLimit }
            let t = TilesState(request: request)
            tiles = t
            return t
        }
    }
}

@_cdecl("glsnap_tiles_plan")
public func glsnap_tiles_plan(_ s: OpaquePointer?, _ pyramid: UnsafePointer<CChar>?,
                              _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    call(s) { h in
        guard let out else { throw CallError(.invalidArgument, "plan_out is NULL") }
        let state = try h.tilesState(try PyramidRequest(json: pyramid, snapshotter: h.snapshotter))
        let request = state.request
        let all = state.metatiles
        let regions = Array(Set(all.compactMap(\.region))).sorted { ($0.z, $0.y.lowerBound, $0.x.lowerBound) < ($1.z, $1.y.lowerBound, $1.x.lowerBound) }
        let regionIndex = Dictionary(uniqueKeysWithValues: regions.enumerated().map { ($1, $0) })
        let index = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1, $0) })
        let shard = request.pyramid.metatiles(shard: request.shard.index, of: request.shard.count).compactMap { index[$0] }
        func range(_ z: Int, _ x: ClosedRange<Int>, _ y: ClosedRange<Int>) -> String {
            "[\(z),\(x.lowerBound),\(x.upperBound),\(y.lowerBound),\(y.upperBound)"
        }
        let metadata = request.metadata(h.snapshotter).rows.sorted { $0.key < $1.key }
            .map { "\(JSON.quote($0.key)):\(JSON.quote($0.value))" }.joined(separator: ",")
        let b = request.pyramid.bounds
        var text = "{\"tiles\":\(request.pyramid.tileCount),\"tilePixels\":\(request.pyramid.tilePixels),"
        text += "\"bounds\":[\(b.southwest.longitude),\(b.southwest.latitude),\(b.northeast.longitude),\(b.northeast.latitude)],"
        text += "\"metadata\":{\(metadata)},"
        text += "\"regions\":[" + regions.map { range($0.z, $0.x, $0.y) + "]" }.joined(separator: ",") + "],"
        text += "\"metatiles\":[" + all.map { m in
            range(m.z, m.x, m.y) + ",\(m.region.flatMap { regionIndex[$0] } ?? -1)]"
        }.joined(separator: ",") + "],"
        text += "\"shard\":[" + shard.map(String.init).joined(separator: ",") + "]}"
        try mallocString(text, out)
    }
}

@_cdecl("glsnap_tiles_render")
public func glsnap_tiles_render(_ s: OpaquePointer?, _ pyramid: UnsafePointer<CChar>?, _ indices: UnsafePointer<UInt32>?,
                                _ count: Int, _ archive: UnsafePointer<CChar>?,
                                _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    call(s) { h in
        let path = try text(archive, "archive")
        guard !path.isEmpty else { throw CallError(.invalidArgument, "archive is empty") }
        guard count >= 0, count == 0 || indices != nil else { throw CallError(.invalidArgument, "metatiles is NULL") }
        let state = try h.tilesState(try PyramidRequest(json: pyramid, snapshotter: h.snapshotter))
        let chosen = try (0..<count).map { i -> MetaTile in
            let n = Int(indices![i])
            guard n < state.metatiles.count else {
                throw CallError(.invalidArgument, "metatile \(n) does not exist: the pyramid has \(state.metatiles.count) (0...\(state.metatiles.count - 1))")
            }
            return state.metatiles[n]
        }
        try state.lock.withLock {
            let metadata = state.request.metadata(h.snapshotter)
            let writer: TileArchiveWriter
            do { writer = try TileArchive.writer(path: path, format: state.request.archiveFormat) } catch {
                throw CallError(.invalidArgument, "\(error)")
            }
            let existing = try writer.existingTiles()
            // As `glsnap tiles`: an archive started with other options is not added to.
            if let started = try writer.startedMetadata() {
                let was = started.extra[TilesState.runKey], now = metadata.extra[TilesState.runKey]
                guard was == now || (was == nil && existing.isEmpty) else {
                    throw CallError(.invalidArgument, "\(path) was started with other options (\(was ?? "not by glsnap tiles")); this pyramid is \(now ?? "")")
                }
            } else if !existing.isEmpty {
                throw CallError(.invalidArgument, "\(path) holds tiles not written by glsnap tiles")
            }
            try writer.start(metadata)
            var rendered = 0, kept = 0
            var warnings: [String] = []
            // Runs of one zoom level go to that level's renderer (its placement region stays).
            var start = 0
            while start < chosen.count {
                var end = start + 1
                while end < chosen.count, chosen[end].z == chosen[start].z { end += 1 }
                let renderer = state.renderer(zoom: chosen[start].z, snapshotter: h.snapshotter)
                let before = renderer.warnings.count
                let done = try renderer.run(Array(chosen[start..<end]), into: writer)
                warnings += renderer.warnings[before...]
                rendered += done.rendered
                kept += done.kept
                start = end
            }
            try writer.finish(metadata)
            guard let out else { return }
            try mallocString("{\"rendered\":\(rendered),\"kept\":\(kept),\"warnings\":[" + warnings.map(JSON.quote).joined(separator: ",") + "]}", out)
        }
    }
}
