import Foundation
import GLSnap
import GLSnapStyle

/// `glsnap query`: draws the map `render` would and prints the features under a point or in a
/// box as a GeoJSON FeatureCollection.
enum QueryCommand {
    static let help = """
    usage: glsnap query (--point X,Y | --box X1,Y1,X2,Y2) [--layers ID[,ID…]] [--filter JSON]
                        [render's options: --style, --center, --zoom, --bearing, --pitch, --roll, --fov, --bounds,
                         --padding, --size, --ratio, --backend, --fit-data, --strict, --http-cache, …]

    Draws the map as `glsnap render` would (same options, no image written) and prints the
    features drawn at a point or in a box, topmost first, as a GeoJSON FeatureCollection: each
    feature's geometry (longitude, latitude), properties and id, with the style layer, source,
    source layer and feature state (MapLibre's queryRenderedFeatures).
      --point    x,y in points from the image's top-left corner
      --box      x1,y1,x2,y2: two opposite corners, in points
      --layers   only these style layers (comma-separated ids); an unknown id is an error
      --filter   a style-spec filter the features must pass, as JSON: '["==", "class", "park"]'
    """

    static func run(_ argv: [String]) throws -> Int32 {
        let a = try Arguments(argv, valued: RenderCommand.valuedOptions.union(["--point", "--box", "--layers", "--filter"]),
                              flags: RenderCommand.flagOptions)
        if a.flags.contains("--help") || a.flags.contains("-h") {
            print(help)
            return 0
        }
        guard a.positionals.isEmpty else { throw UsageError("unexpected argument '\(a.positionals[0])'") }
        let point = try a.doubles("--point", count: 2)
        let box = try a.doubles("--box", count: 4)
        guard (point == nil) != (box == nil) else { throw UsageError("give one of --point X,Y or --box X1,Y1,X2,Y2") }
        var options = QueryOptions()
        if let layers = a.options["--layers"] {
            options.layers = layers.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard options.layers?.isEmpty == false else { throw UsageError("--layers needs at least one layer id") }
        }
        if let text = a.options["--filter"] {
            do { options.filter = try JSON.parse(text) } catch { throw UsageError("--filter is not JSON: \(error)") }
        }
        let map = try RenderCommand.prepare(a)
        defer { map.snapshotter.close() }
        // Drawn band by band and the pixels dropped: a query needs the placement, not the image.
        let snapshot = try map.snapshotter.render(camera: map.camera) { _, _, _ in }
        snapshot.warnings.forEach(RenderCommand.warn)
        let features: [QueriedFeature]
        do {
            if let point {
                features = try snapshot.queryRenderedFeatures(at: Point(x: point[0], y: point[1]), options: options)
            } else if let box {
                features = try snapshot.queryRenderedFeatures(in: (Point(x: box[0], y: box[1]), Point(x: box[2], y: box[3])), options: options)
            } else {
                features = []
            }
        } catch let e as QueryError {
            throw UsageError(e.message)
        }
        print(QueriedFeature.featureCollection(features).text)
        return 0
    }
}
