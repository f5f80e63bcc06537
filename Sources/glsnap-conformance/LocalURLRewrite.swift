/// The `resourceRewrite` of the render suite: `local://<folder>/<rest>` names the file
/// `<suite>/<folder>/<rest>` (tiles, glyphs, sprites, data, image, tilesets, styles, geojson …),
/// with any query string dropped (`{range}.pbf?ignore={fontstack}` reads `{range}.pbf`).
/// Other URLs are left to the resolver (nil).
func makeLocalRewrite(suiteDir: String) -> @Sendable (String) -> String? {
    let root = suiteDir.hasSuffix("/") ? String(suiteDir.dropLast()) : suiteDir
    return { url in
        let scheme = "local://"
        guard url.hasPrefix(scheme) else { return nil }
        var rest = Substring(url.dropFirst(scheme.count))
        if let q = rest.firstIndex(of: "?") { rest = rest[..<q] }
        // A URL may not climb out of the suite.
        guard !rest.split(separator: "/").contains("..") else { return nil }
        return root + "/" + rest
    }
}
