import GLSnapLayout

/// Values that stay the same for the whole of one frame, computed once instead of per tile and
/// layer: tile matrices and the feature-independent paint values of each layer.
final class FrameCaches {
    struct PaintKey: Hashable {
        var layer: String
        var property: String
        var integerZoom: Bool
    }

    private var matrices: [CoveredTile: [Float]] = [:]
    private var constants: [PaintKey: [Float]] = [:]

    /// The tile's matrix into the whole image's clip space.
    func tileMatrix(_ tile: CoveredTile, _ transform: Transform) -> [Float] {
        if let m = matrices[tile] { return m }
        let m = transform.tileMatrix(for: tile.id, wrap: tile.wrap)
        matrices[tile] = m
        return m
    }

    /// A feature-constant paint property's components, evaluated once per frame.
    func constant(_ key: PaintKey, _ make: () -> [Float]) -> [Float] {
        if let v = constants[key] { return v }
        let v = make()
        constants[key] = v
        return v
    }
}
