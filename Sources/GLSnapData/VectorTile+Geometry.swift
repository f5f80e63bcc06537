import GLSnapStyle

/// Geometry command ids of the vector-tile spec (section 4.3.3).
private enum Command {
    static let moveTo: UInt64 = 1
    static let lineTo: UInt64 = 2
    static let closePath: UInt64 = 7
}

extension VectorTile {
    /// Decodes a feature's command stream into parts:
    /// - points: one point per inner array (a MoveTo of count 3 gives 3 arrays);
    /// - line strings: one array per MoveTo, extended by the LineTos that follow;
    /// - polygons: one array per ring, **closed**: ClosePath appends the ring's first point, as
    ///   MapLibre's `loadGeometry` does, so a ring of n distinct vertices has n + 1 points.
    ///
    /// Coordinates accumulate with wrapping Int32 arithmetic (the spec's parameters are 32-bit).
    /// Throws for: an unknown command id; a MoveTo/LineTo whose count needs more parameters than
    /// remain; a LineTo or ClosePath before any MoveTo; a ClosePath with count other than 1 (in a
    /// version-2 layer); a
    /// LineTo or ClosePath in a point feature; a ClosePath in a version-2 line string (in a
    /// version-1 layer it closes the line, as MapLibre does).
    static func decodeGeometry(_ packed: PackedVarints, type: GeometryType, layerVersion: Int,
                               layer: String) throws -> [[TilePoint]] {
        var stream = packed
        var remaining = stream.count
        var parts: [[TilePoint]] = []
        var current: [TilePoint] = []
        var x: Int32 = 0
        var y: Int32 = 0
        func fail(_ rule: String, _ offset: Int) -> TileDecodeError {
            .geometry(layer: layer, rule: rule, offset: offset)
        }
        while true {
            let offset = stream.position
            guard let word = try stream.next() else { break }
            remaining -= 1
            let command = word & 7
            let count = word >> 3
            switch command {
            case Command.moveTo, Command.lineTo:
                guard count <= UInt64(remaining / 2) else {
                    throw fail("command count \(count) needs \(count * 2) parameters but \(remaining) remain", offset)
                }
                let n = Int(count)
                remaining -= 2 * n
                if command == Command.lineTo {
                    guard type != .point else { throw fail("LineTo in a point geometry", offset) }
                    guard !current.isEmpty else { throw fail("LineTo before the first MoveTo", offset) }
                    current.reserveCapacity(current.count + n + 1)
                } else if type == .point {
                    parts.reserveCapacity(parts.count + n)
                }
                for _ in 0..<n {
                    // The count check above guarantees both parameters exist.
                    guard let dx = try stream.next(), let dy = try stream.next() else {
                        throw fail("parameters missing", offset)
                    }
                    x &+= Int32(truncatingIfNeeded: ProtobufReader.zigzag(dx))
                    y &+= Int32(truncatingIfNeeded: ProtobufReader.zigzag(dy))
                    let point = TilePoint(x: x, y: y)
                    if command == Command.lineTo {
                        current.append(point)
                    } else if type == .point {
                        parts.append([point])
                    } else {
                        if !current.isEmpty { parts.append(current) }
                        current = [point]
                    }
                }
            case Command.closePath:
                // Version-1 encoders wrote ClosePath with count 0 (fixture 061); 2.x requires 1.
                guard count == 1 || layerVersion < 2 else { throw fail("ClosePath with count \(count) (it must be 1)", offset) }
                guard let first = current.first else { throw fail("ClosePath before the first MoveTo", offset) }
                guard type != .point else { throw fail("ClosePath in a point geometry", offset) }
                guard type == .polygon || layerVersion < 2 else {
                    throw fail("ClosePath in a line string", offset)
                }
                current.append(first)
            default:
                throw fail("unknown command id \(command)", offset)
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }
}
