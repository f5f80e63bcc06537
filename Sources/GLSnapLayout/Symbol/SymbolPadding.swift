extension SymbolPlacement {
    /// A `padding` value ([all], [vertical, horizontal], [top, horizontal, bottom] or [top,
    /// right, bottom, left], as CSS) as margins: minX left, minY top, maxX right, maxY bottom.
    /// Anything else is the default, 2 on every side.
    static func paddingMargins(_ v: [Double]) -> Rect {
        switch v.count {
        case 1: return Rect(minX: v[0], minY: v[0], maxX: v[0], maxY: v[0])
        case 2: return Rect(minX: v[1], minY: v[0], maxX: v[1], maxY: v[0])
        case 3: return Rect(minX: v[1], minY: v[0], maxX: v[1], maxY: v[2])
        case 4: return Rect(minX: v[3], minY: v[0], maxX: v[1], maxY: v[2])
        default: return Rect(minX: 2, minY: 2, maxX: 2, maxY: 2)
        }
    }
}
