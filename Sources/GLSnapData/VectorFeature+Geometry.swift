import GLSnapStyle

extension VectorFeature {
    /// The geometry for `within` and `distance`, in the layer's extent (the renderer sets
    /// `EvaluationContext.geometryExtent` and `canonicalID` for the tile).
    public func tileGeometry() -> [[GeometryPoint]]? {
        geometry.map { part in part.map { GeometryPoint(x: Double($0.x), y: Double($0.y)) } }
    }
}
