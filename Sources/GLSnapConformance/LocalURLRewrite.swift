import Foundation

/// The `resourceRewrite` of the render suite: `local://<folder>/<rest>` names the file
/// `<suite>/<folder>/<rest>` (tiles, glyphs, sprites, data, image, tilesets, styles, geojson …),
/// with any query string dropped (`{range}.pbf?ignore={fontstack}` reads `{range}.pbf`).
/// `mapbox://` URLs of the suite's hosted styles map to its fixtures as the GL harness does:
/// `mapbox://fonts/…` to `glyphs/…`, `mapbox://sprites/…` to `sprites/…`, and any other
/// `mapbox://<tileset>` to the TileJSON `tilesets/<tileset>`.
/// `local://mvt-fixtures/…` names the suite's own `mvt-fixtures` folder or, where it has none, the
/// project's copy of mvt-fixtures 4.0.0's real-world tiles (`vendoredFixtures`).
/// Other URLs are left to the resolver (nil).
package func makeLocalRewrite(suiteDir: String, vendoredFixtures: String? = vendoredMVTFixtures) -> @Sendable (String) -> String? {
    let root = suiteDir.hasSuffix("/") ? String(suiteDir.dropLast()) : suiteDir
    let fixtures = FileManager.default.fileExists(atPath: root + "/mvt-fixtures") ? nil : vendoredFixtures
    return { url in
        var rest: Substring
        if url.hasPrefix("local://") {
            rest = url.dropFirst("local://".count)
        } else if url.hasPrefix("mapbox://") {
            let path = url.dropFirst("mapbox://".count)
            if path.hasPrefix("fonts/") {
                rest = "glyphs/" + path.dropFirst("fonts/".count)
            } else if path.hasPrefix("sprites/") {
                rest = path
            } else {
                rest = "tilesets/" + path
            }
        } else {
            return nil
        }
        if let q = rest.firstIndex(of: "?") { rest = rest[..<q] }
        // A URL may not climb out of the suite.
        guard !rest.split(separator: "/").contains("..") else { return nil }
        if let fixtures, rest.hasPrefix("mvt-fixtures/") { return fixtures + "/" + rest.dropFirst("mvt-fixtures/".count) }
        return root + "/" + rest
    }
}

/// The project's copy of mvt-fixtures (test-data/mvt-fixtures, see its README), found from this
/// source file's place in the checkout; nil when the checkout is not where the binary was built.
package let vendoredMVTFixtures: String? = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let folder = root.appendingPathComponent("test-data/mvt-fixtures").path
    return FileManager.default.fileExists(atPath: folder) ? folder : nil
}()
