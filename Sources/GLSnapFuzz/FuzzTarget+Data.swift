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

    /// The archive is written to one scratch file per process (PMTilesSource reads through a file
    /// descriptor), then every tile of zooms 0-2 is looked up and decoded.
    static func pmtiles(_ bytes: [UInt8]) {
        _ = try? PMTilesDirectory.decode(bytes, path: "input")
        let path = scratchFile
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            preconditionFailure("cannot write the fuzz scratch file \(path)")
        }
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

    static let scratchFile = FileManager.default.temporaryDirectory
        .appendingPathComponent("glsnap-fuzz-\(ProcessInfo.processInfo.processIdentifier).pmtiles").path

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
