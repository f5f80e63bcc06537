/// The `resourceRewrite` of the render suite: `local://<folder>/<rest>` names the file
/// `<suite>/<folder>/<rest>` (tiles, glyphs, sprites, data, image, tilesets, styles, geojson …),
/// with any query string dropped (`{range}.pbf?ignore={fontstack}` reads `{range}.pbf`).
/// `mapbox://` URLs of the suite's hosted styles map to its fixtures as the GL harness does:
/// `mapbox://fonts/…` to `glyphs/…`, `mapbox://sprites/…` to `sprites/…`, and any other
/// `mapbox://<tileset>` to the TileJSON `tilesets/<tileset>`.
/// Other URLs are left to the resolver (nil).
package func makeLocalRewrite(suiteDir: String) -> @Sendable (String) -> String? {
    let root = suiteDir.hasSuffix("/") ? String(suiteDir.dropLast()) : suiteDir
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
        return root + "/" + rest
    }
}
