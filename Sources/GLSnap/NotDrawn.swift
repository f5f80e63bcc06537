import GLSnapLayout
import GLSnapStyle

/// What a style may ask for that glsnap does not draw yet, so that it is named in a warning
/// instead of silently left out. Remove an entry when its drawing lands.
enum NotDrawn {
    /// The properties `layer` sets that glsnap reads nowhere, with what is drawn instead.
    static func properties(_ layer: TypedLayer) -> [(name: String, instead: String)] {
        // Every property of spec 26.2.1 is drawn now (text-writing-mode and
        // text-variable-anchor-offset were the last). A new one goes here, as
        // `property.isSet ? (property.name, "what is drawn instead") : nil`, until its drawing lands.
        switch layer {
        case .symbol, .fill, .line, .circle, .heatmap, .fillExtrusion, .raster, .hillshade, .colorRelief, .background:
            return []
        }
    }

    /// One warning per layer property and root key of `style` that is not drawn.
    static func warnings(_ style: Style) -> [String] {
        var out: [String] = []
        for (i, layer) in style.layers.enumerated() {
            for p in properties(layer.typed) {
                out.append("layer \"\(layer.id)\" (layers[\(i)]): \(p.name) is not drawn by glsnap; drawn with \(p.instead)")
            }
        }
        let root = style.json
        if case .object(let terrain)? = root["terrain"], let source = terrain["source"]?.stringValue,
           style.sources[source]?["type"]?.stringValue != "raster-dem" {
            out.append("terrain source \"\(source)\" is not a raster-dem source; the map is drawn flat")
        }
        if let problem = GlobeProjection.problem(root["projection"], state: root["state"]) { out.append(problem) }
        return out
    }
}
