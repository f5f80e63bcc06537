import Foundation
import GLSnapData

/// What the service serves besides rendered images, under ids and names only (never a path of
/// this machine): MBTiles files and PMTiles archives at `/data/{id}`, glyph folders at `/fonts/...`. Built while the
/// styles load, read-only afterwards.
final class DataCatalog: @unchecked Sendable {
    /// Data ids to MBTiles files, absolute: the configuration's `data` and the files styles name
    /// directly (`mbtiles://../tiles/x.mbtiles` gets the id `x`, or `x-2`, ... when taken).
    private(set) var files: [String: String] = [:]
    private var opened: [String: DataFile] = [:]
    /// Layers found in a tile for data whose metadata lists none (see `DataFile.layersNearCenter`),
    /// for the data viewer's style.
    private(set) var guessedLayers: [String: [[String: Any]]] = [:]
    /// Folders that hold `{fontstack}/{range}.pbf`, looked in in order: `options.paths.fonts`
    /// first, then each style's own glyph folder.
    private(set) var fontFolders: [String] = []

    init(config: ServerConfig) {
        files = config.data
        fontFolders = [config.paths.fonts]
    }

    /// The id serving `path`: the configured one when there is one, else a new id from its file name.
    func id(forFile path: String) -> String {
        if let known = files.first(where: { $0.value == path })?.key { return known }
        var stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        stem = String(stem.unicodeScalars.map { c -> Character in
            c.isASCII && (CharacterSet.alphanumerics.contains(c) || c == "-" || c == "_") ? Character(c) : "-"
        })
        if !isSafeName(stem) { stem = "data" }
        var id = stem, n = 2
        while files[id] != nil { id = "\(stem)-\(n)"; n += 1 }
        files[id] = path
        return id
    }

    func addFontFolder(_ folder: String) {
        if !fontFolders.contains(folder) { fontFolders.append(folder) }
    }

    /// Opens every MBTiles file once; a file that cannot be opened fails the load, naming its id.
    func open() throws {
        for (id, path) in files.sorted(by: { $0.key < $1.key }) {
            do {
                let file = try DataFile.open(path: path, id: id)
                opened[id] = file
                if ((file.tileJSONFields["vector_layers"] as? [Any]) ?? []).isEmpty { guessedLayers[id] = file.layersNearCenter() }
            } catch {
                throw ServerError.config(file: path, message: "data '\(id)': \(error)")
            }
        }
    }

    func source(_ id: String) -> DataFile? { opened[id] }

    /// The data ids served, sorted.
    var ids: [String] { opened.keys.sorted() }

    /// The fonts served when not all are (`serveAllFonts: false`): those the styles name; nil: all.
    var allowedFonts: Set<String>?

    /// Whether `name` is served: allowed, and a font folder holds it (a folder of glyph ranges).
    func hasFont(_ name: String) -> Bool {
        if let allowed = allowedFonts, !allowed.contains(name) { return false }
        return fontFolders.contains { folder in
            var dir: ObjCBool = false
            return FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(name), isDirectory: &dir) && dir.boolValue
        }
    }

    /// The fonts of every font folder (folders holding `0-255.pbf`), sorted, each once.
    func fontNames() -> [String] {
        var names = Set<String>()
        for folder in fontFolders {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !name.hasPrefix(".") {
                if FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(name + "/0-255.pbf")) { names.insert(name) }
            }
        }
        return names.filter { allowedFonts?.contains($0) ?? true }.sorted()
    }

    /// The glyph file of the first font of `stack` that has `range`, as tileserver-gl picks it.
    func glyphFile(stack: [String], range: String) -> String? {
        for font in stack {
            for folder in fontFolders {
                let path = (folder as NSString).appendingPathComponent(font + "/" + range + ".pbf")
                if FileManager.default.isReadableFile(atPath: path) { return path }
            }
        }
        return nil
    }
}
