/// A collision shape that placement tested, kept for collision debug drawing (MapLibre's
/// `showCollisionBoxes`): a box (x1, y1, x2, y2) or a line label's circle, in screen CSS pixels,
/// and whether its symbol was placed. Recorded only when placement is asked to
/// (`SymbolPlacement.place(collisionDebug:)`), so placement costs nothing more otherwise.
public struct CollisionDebugShape: Sendable, Equatable {
    public var x1: Double, y1: Double, x2: Double, y2: Double
    /// A circle of a line label: its center is the box's, its radius half the box's width.
    public var isCircle: Bool
    /// The symbol's text (or icon) was placed: drawn blue; otherwise red.
    public var placed: Bool
    /// A box standing for a symbol rather than tested where it is (a label with variable anchors
    /// that took none: its box at the layout's anchor); GL JS draws it at a tenth of the color.
    public var used: Bool

    public init(x1: Double, y1: Double, x2: Double, y2: Double, isCircle: Bool = false, placed: Bool, used: Bool = true) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2; self.isCircle = isCircle; self.placed = placed; self.used = used
    }

    init(_ s: CollisionShape, placed: Bool, used: Bool = true) {
        self.init(x1: s.x1, y1: s.y1, x2: s.x2, y2: s.y2, isCircle: s.isCircle, placed: placed, used: used)
    }

    /// The shapes of one symbol's text and icon as tested, each marked with the outcome of its part.
    static func record(_ text: PlacedText, _ icon: PlacedIcon, _ inst: SymbolInstance, placeText: Bool, placeIcon: Bool,
                       into debug: inout [CollisionDebugShape]?) {
        guard debug != nil else { return }
        let textUsed = inst.variableAnchors.isEmpty || text.placed
        debug?.append(contentsOf: text.shapes.map { CollisionDebugShape($0, placed: placeText, used: textUsed) })
        if let s = icon.shape { debug?.append(CollisionDebugShape(s, placed: placeIcon)) }
    }
}
