import XCTest
import GLSnapStyle
@testable import GLSnapLayout

/// What placement keeps for collision debug drawing (`CollisionDebugShape`).
final class CollisionDebugTests: XCTestCase {
    private func instance(variableAnchors: [VariableAnchor] = []) -> SymbolInstance {
        var inst = SymbolInstance(feature: 0, anchor: Vec2(0, 0), line: -1, segment: 0, glyphs: 0..<1, text: 0, textBox: .zero,
                                  icon: nil, sortKey: 0, textLayoutSize: 16, iconLayoutSize: 1)
        inst.variableAnchors = variableAnchors
        return inst
    }

    func testNothingIsKeptUnlessAsked() {
        var text = PlacedText()
        text.shapes = [.box(0, 0, 10, 10)]
        var debug: [CollisionDebugShape]? = nil
        CollisionDebugShape.record(text, PlacedIcon(), instance(), placeText: true, placeIcon: false, into: &debug)
        XCTAssertNil(debug)
        let data = SymbolDrawData(glyphAtlas: SymbolAtlas(bytesPerPixel: 1), iconAtlas: SymbolAtlas(bytesPerPixel: 4))
        XCTAssertNil(data.collisionDebug, "placement without collision debug keeps no shapes")
    }

    func testTextAndIconShapesCarryTheirOutcome() {
        var text = PlacedText()
        text.shapes = [.circle(5, 5, 2), .circle(9, 5, 2)]
        text.placed = true
        var icon = PlacedIcon()
        icon.shape = .box(1, 2, 3, 4)
        var debug: [CollisionDebugShape]? = []
        CollisionDebugShape.record(text, icon, instance(), placeText: true, placeIcon: false, into: &debug)
        XCTAssertEqual(debug, [
            CollisionDebugShape(x1: 3, y1: 3, x2: 7, y2: 7, isCircle: true, placed: true),
            CollisionDebugShape(x1: 7, y1: 3, x2: 11, y2: 7, isCircle: true, placed: true),
            CollisionDebugShape(x1: 1, y1: 2, x2: 3, y2: 4, placed: false),
        ])
    }

    func testAVariableAnchorLabelThatTookNoneIsNotUsed() {
        var text = PlacedText()
        text.shapes = [.box(0, 0, 10, 10)]
        let anchors = [VariableAnchor(anchor: .top, offset: Vec2(0, 0))]
        var debug: [CollisionDebugShape]? = []
        CollisionDebugShape.record(text, PlacedIcon(), instance(variableAnchors: anchors), placeText: false, placeIcon: false, into: &debug)
        XCTAssertEqual(debug?.map(\.used), [false])
        text.placed = true
        debug = []
        CollisionDebugShape.record(text, PlacedIcon(), instance(variableAnchors: anchors), placeText: false, placeIcon: false, into: &debug)
        XCTAssertEqual(debug?.map(\.used), [true], "an anchor found, the text hidden by its icon: a red box in use")
    }
}
