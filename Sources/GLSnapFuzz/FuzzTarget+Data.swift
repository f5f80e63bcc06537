import Foundation
import GLSnapData

extension FuzzTarget {
    static func vectorTile(_ bytes: [UInt8]) {
        for rules in [VectorTileRules.compatible, .strict2] {
            guard let tile = try? VectorTile.decode(bytes, rules: rules) else { continue }
            for layer in tile.layers.values {
                for feature in layer.features {
                    _ = feature.geometry.reduce(0) { $0 + $1.count }
                    _ = feature.properties.count
                }
            }
        }
    }

    static func mapLibreTile(_ bytes: [UInt8]) {
        guard let tile = try? VectorTile.decode(bytes, encoding: .mlt) else { return }
        for layer in tile.layers.values {
            for feature in layer.features {
                _ = feature.geometry.reduce(0) { $0 + $1.count }
                _ = feature.properties.count
            }
        }
    }

    /// The archive is written to one scratch file per process (PMTilesSource reads through a file
    /// descriptor), then every tile of zooms 0-2 is looked up and decoded.
    static func pmtiles(_ bytes: [UInt8]) {
        _ = try? PMTilesDirectory.decode(bytes, path: "input")
        let path = scratchFile
        writeScratch(bytes, to: path)
        guard let source = try? PMTilesSource(path: path) else { return }
        for z in 0...2 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    guard let id = TileID(z: z, x: x, y: y) else { continue }
                    _ = try? source.tileData(id)
                    if source.info.type == .vector { _ = try? source.vectorTile(id) }
                }
            }
        }
    }

    /// In memory (/dev/shm) where there is one: on disk each input waited for the file system.
    static let scratchFile: String = {
        let memory = "/dev/shm"
        let folder = FileManager.default.isWritableFile(atPath: memory) ? memory : FileManager.default.temporaryDirectory.path
        atexit { unlink(FuzzTarget.scratchFile) }
        return folder + "/glsnap-fuzz-\(ProcessInfo.processInfo.processIdentifier).pmtiles"
    }()

    /// A plain overwrite: with FileManager's atomic write this target waited ~8 ms an input.
    private static func writeScratch(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "cannot open the fuzz scratch file \(path)")
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        precondition(written == bytes.count, "cannot write the fuzz scratch file \(path)")
    }

    static func geojson(_ bytes: [UInt8]) {
        var clustered = GeoJSONOptions()
        clustered.cluster = GeoJSONClusterOptions()
        for options in [GeoJSONOptions(), clustered] {
            guard let source = try? GeoJSONSource(bytes: bytes, options: options) else { return }
            for z in 0...2 {
                for x in 0..<(1 << z) {
                    for y in 0..<(1 << z) {
                        guard let id = TileID(z: z, x: x, y: y) else { continue }
                        _ = try? source.vectorTile(id)
                    }
                }
            }
        }
    }
}
