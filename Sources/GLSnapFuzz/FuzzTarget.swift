/// The fuzz entry points (tools/fuzz.sh): each takes arbitrary bytes and hands them to one parser
/// of untrusted input the way glsnap does. Refusing the input with an error is the expected
/// outcome; a crash, a sanitizer report, a hang or unbounded memory is a bug. The regression
/// tests replay kept inputs (Tests/Fuzz/<target>/crashes) through the same functions.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `VectorTile.decode` (both rule sets), then every feature's geometry and properties.
    case mvt
    /// `VectorTile.decode(_:encoding: .mlt)` (MapLibre Tiles), then every feature.
    case mlt
    /// A whole PMTiles archive: header, root and leaf directories, metadata, tile lookups.
    case pmtiles
    /// `JSON.parse` and `JSON.parseWithLines`.
    case json
    /// `validateStyle` and `Style(bytes:)`.
    case style
    /// An expression (or an expression-suite `test.json`) compiled and evaluated on its inputs.
    case expression
    /// `GeoJSONSource(bytes:)`, plain and clustered, with the tiles of zooms 0-2 cut.
    case geojson
    /// `SVGParameters.declared` and `SVGParameters.apply`.
    case svgParameters = "svg-parameters"
    /// The service's request paths (`Router` through `MapService.handle`, no style loaded).
    case route

    /// Runs one input; returns normally for accepted and refused input alike.
    public func run(_ bytes: [UInt8]) {
        switch self {
        case .mvt: FuzzTarget.vectorTile(bytes)
        case .mlt: FuzzTarget.mapLibreTile(bytes)
        case .pmtiles: FuzzTarget.pmtiles(bytes)
        case .json: FuzzTarget.json(bytes)
        case .style: FuzzTarget.style(bytes)
        case .expression: FuzzTarget.expression(bytes)
        case .geojson: FuzzTarget.geojson(bytes)
        case .svgParameters: FuzzTarget.svgParameters(bytes)
        case .route: FuzzTarget.route(bytes)
        }
    }
}
