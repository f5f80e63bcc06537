import GLSnapData

/// An axis-aligned box in screen pixels (x1 <= x2, y1 <= y2).
public struct QueryBox: Sendable {
    public var x1: Double, y1: Double, x2: Double, y2: Double
}

/// A symbol a placement showed because it fit: the tile, the feature (and its index among the
/// features the layer keeps in that tile) and its collision boxes in screen pixels (circles of line labels
/// as their bounding boxes, as MapLibre's collision grid answers queries).
public struct PlacedSymbol: Sendable {
    public var tile: CoveredTile
    public var feature: VectorFeature
    public var featureIndex: Int
    public var boxes: [QueryBox]
    /// Where the layer is drawn by screen position (`symbol-z-order` viewport-y, or overlapping
    /// symbols): the anchor's row in the view turned upright (tile units); nil where it is drawn
    /// in feature order.
    public var viewportY: Double?
}
