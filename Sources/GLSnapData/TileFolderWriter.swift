import Foundation

/// A folder of tiles, `{z}/{x}/{y}.{ext}` (the layout tile servers and `gdal2tiles` read), and
/// `metadata.json` with the MBTiles rows.
///
/// Each tile file is written to a temporary name and renamed, so a crash leaves whole tiles
/// only; the tiles already there are kept when a run resumes.
public final class TileFolderWriter: TileArchiveWriter, TileArchiveReader {
    public let path: String
    /// `png`, `jpg` or `webp`; nil (reading): any of them.
    public let fileExtension: String?
    static let metadataFile = "metadata.json"

    public init(path: String, fileExtension: String?) throws {
        self.path = path
        self.fileExtension = fileExtension
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw TileArchiveError.unsupported(path: path, reason: "exists and is not a folder") }
        } else if fileExtension != nil {
            try makeFolder(path)
        }
    }

    private func makeFolder(_ folder: String) throws {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw TileArchiveError.io(path: folder, call: "mkdir", reason: "\(error.localizedDescription)")
        }
    }

    public func existingTiles() throws -> Set<TileID> {
        var ids = Set<TileID>()
        try forEachFile { id, _ in ids.insert(id) }
        return ids
    }

    public var metadata: TileArchiveMetadata? { (try? startedMetadata()) ?? nil }

    public func startedMetadata() throws -> TileArchiveMetadata? {
        guard let data = FileManager.default.contents(atPath: path + "/" + TileFolderWriter.metadataFile),
              let rows = try? JSONSerialization.jsonObject(with: data) as? [String: String] else { return nil }
        return TileArchiveMetadata(rows: rows)
    }

    public func start(_ metadata: TileArchiveMetadata) throws { try writeMetadata(metadata) }

    public func write(_ tiles: [(id: TileID, data: [UInt8])]) throws {
        guard let ext = fileExtension else { throw TileArchiveError.unsupported(path: path, reason: "opened for reading") }
        var made = Set<String>()
        for tile in tiles {
            let folder = "\(path)/\(tile.id.z)/\(tile.id.x)"
            if !made.contains(folder) {
                if !FileManager.default.fileExists(atPath: folder) { try makeFolder(folder) }
                made.insert(folder)
            }
            try TileArchive.writeAtomically(tile.data, to: "\(folder)/\(tile.id.y).\(ext)")
        }
    }

    public func finish(_ metadata: TileArchiveMetadata) throws { try writeMetadata(metadata) }

    private func writeMetadata(_ metadata: TileArchiveMetadata) throws {
        let data = (try? JSONSerialization.data(withJSONObject: metadata.rows, options: [.sortedKeys, .prettyPrinted])) ?? Data("{}".utf8)
        try TileArchive.writeAtomically(Array(data), to: path + "/" + TileFolderWriter.metadataFile)
    }

    public func forEachTile(_ body: (TileID, [UInt8]) throws -> Void) throws {
        try forEachFile { id, file in
            guard let data = FileManager.default.contents(atPath: file) else {
                throw TileArchiveError.io(path: file, call: "read", reason: "cannot read the tile")
            }
            try body(id, Array(data))
        }
    }

    /// Every `z/x/y.ext` file whose numbers name a tile of the grid (other files are ignored).
    private func forEachFile(_ body: (TileID, String) throws -> Void) throws {
        let fm = FileManager.default
        let extensions: Set<String> = fileExtension.map { [$0] } ?? ["png", "jpg", "webp"]
        for zName in ((try? fm.contentsOfDirectory(atPath: path)) ?? []).sorted() {
            guard let z = Int(zName), (0...TileID.maxZoom).contains(z) else { continue }
            for xName in ((try? fm.contentsOfDirectory(atPath: "\(path)/\(zName)")) ?? []).sorted() {
                guard let x = Int(xName) else { continue }
                for file in ((try? fm.contentsOfDirectory(atPath: "\(path)/\(zName)/\(xName)")) ?? []).sorted() {
                    let ext = (file as NSString).pathExtension
                    guard extensions.contains(ext), let y = Int((file as NSString).deletingPathExtension),
                          let id = TileID(z: z, x: x, y: y) else { continue }
                    try body(id, "\(path)/\(zName)/\(xName)/\(file)")
                }
            }
        }
    }
}
