import Foundation

/// Debug drawing over the map, as MapLibre Native's `MapDebugOptions` and GL JS's
/// `showTileBoundaries`, `showCollisionBoxes` and `showOverdrawInspector` (`MapSnapshotOptions.debug`;
/// `glsnap render --debug tiles,collision,overdraw`).
public struct MapDebugOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Each tile's border, a 1-pixel red line (of the vector source with the highest maxzoom,
    /// else any source, as GL JS picks), with the tile's id.
    public static let tileBorders = MapDebugOptions(rawValue: 1 << 0)
    /// Every symbol's collision boxes and line labels' collision circles, placed or not: blue
    /// where the symbol was placed, red where it collided (GL JS's colors).
    public static let collision = MapDebugOptions(rawValue: 1 << 1)
    /// The overdraw inspector: instead of their colors, every layer's fragments are counted, each
    /// adding 32 to a pixel's grey over black (8 or more: white), as GL JS and MapLibre Native draw it.
    public static let overdraw = MapDebugOptions(rawValue: 1 << 2)

    /// The names `--debug` takes, in order.
    public static let names: [(name: String, option: MapDebugOptions)] = [
        ("tiles", .tileBorders), ("collision", .collision), ("overdraw", .overdraw),
    ]

    /// Parses a comma-separated list of `names` (`"collision,tiles"`), or fails naming the first
    /// word that is not one.
    public static func parse(_ list: String) -> Result<MapDebugOptions, DebugOptionError> {
        var options: MapDebugOptions = []
        for word in list.split(separator: ",", omittingEmptySubsequences: false) {
            let w = word.trimmingCharacters(in: .whitespaces)
            guard let entry = names.first(where: { $0.name == w }) else { return .failure(DebugOptionError(word: w)) }
            options.insert(entry.option)
        }
        return .success(options)
    }
}

/// A `--debug` word that is not a debug option.
public struct DebugOptionError: Error, CustomStringConvertible {
    public let word: String
    public var description: String {
        "unknown debug option '\(word)' (expected a comma-separated list of \(MapDebugOptions.names.map(\.name).joined(separator: ", ")))"
    }
}
