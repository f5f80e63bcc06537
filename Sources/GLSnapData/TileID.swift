/// A tile address z/x/y (XYZ scheme, y down). Invalid addresses cannot be made.
public struct TileID: Hashable, Sendable, CustomStringConvertible {
    public let z: Int
    public let x: Int
    public let y: Int

    /// The largest zoom any source may address.
    public static let maxZoom = 30

    public init?(z: Int, x: Int, y: Int) {
        guard z >= 0, z <= TileID.maxZoom else { return nil }
        let n = 1 << z
        guard x >= 0, x < n, y >= 0, y < n else { return nil }
        self.z = z; self.x = x; self.y = y
    }

    /// The ancestor at zoom `z` (which must be <= self.z).
    public func parent(atZoom z: Int) -> TileID {
        precondition(z >= 0 && z <= self.z, "parent zoom \(z) above tile zoom \(self.z)")
        let d = self.z - z
        return TileID(z: z, x: x >> d, y: y >> d)!
    }

    /// The row in the TMS scheme (y up), as MBTiles stores it.
    public var tmsY: Int { (1 << z) - 1 - y }

    public var description: String { "\(z)/\(x)/\(y)" }
}
