import XCTest
@testable import GLSnapStyle

/// Style loading and the validator read one copy of the spec (Generated/SpecSchema.swift): the
/// property table is built from it, with the facts the separately generated table had.
final class SpecTablesTests: XCTestCase {
    func testPropertiesComeFromTheSchema() throws {
        let width = try XCTUnwrap(PropertySpec.find(layer: "line", kind: .paint, name: "line-width"))
        XCTAssertEqual(width.type, .number)
        XCTAssertEqual(width.defaultValue, .number(1))
        XCTAssertEqual(width.minimum, 0)
        XCTAssertNil(width.maximum)
        XCTAssertTrue(width.isDataDriven && width.allowsZoom && width.isInterpolated && width.isTransitionable)
        XCTAssertEqual(width.propertyType, "data-driven")
        let cap = try XCTUnwrap(PropertySpec.find(layer: "line", kind: .layout, name: "line-cap"))
        XCTAssertEqual(cap.type, .enumeration(["butt", "round", "square"])) // the spec's order
        XCTAssertFalse(cap.isTransitionable)
        let field = try XCTUnwrap(PropertySpec.find(layer: "symbol", kind: .layout, name: "text-field"))
        XCTAssertEqual(field.type, .formatted)
        XCTAssertTrue(field.usesTokens)
        let offset = try XCTUnwrap(PropertySpec.find(layer: "symbol", kind: .layout, name: "text-offset"))
        XCTAssertEqual(offset.type, .array(item: "number", length: 2))
        XCTAssertEqual(offset.defaultValue, .array([.number(0), .number(0)]))
        let ramp = try XCTUnwrap(PropertySpec.find(layer: "heatmap", kind: .paint, name: "heatmap-color"))
        XCTAssertEqual(ramp.propertyType, "color-ramp")
        XCTAssertFalse(ramp.allowsZoom)
        XCTAssertNil(PropertySpec.find(layer: "line", kind: .layout, name: "line-width"))
        XCTAssertNil(PropertySpec.find(layer: "line", kind: .paint, name: "line-wdith"))
        // Every layout and paint group of the schema is in the table, and nothing else.
        let groups = (SpecTables.schema.objectValue ?? [:]).filter { $0.key.hasPrefix("layout_") || $0.key.hasPrefix("paint_") }
        XCTAssertEqual(SpecTables.properties.count, groups.values.reduce(0) { $0 + ($1.objectValue?.count ?? 0) })
        XCTAssertGreaterThan(SpecTables.properties.count, 100)
        for p in SpecTables.properties {
            XCTAssertNotNil(SpecTables.schema["\(p.kind == .paint ? "paint" : "layout")_\(p.layerType)"]?[p.name], p.name)
        }
    }

    func testExpressionNamesInSpecOrder() {
        XCTAssertEqual(SpecTables.expressionNames.first, "let")
        XCTAssertTrue(SpecTables.expressionNames.contains("interpolate"))
        XCTAssertEqual(Set(SpecTables.expressionNames).count, SpecTables.expressionNames.count)
    }

    func testTheValidatorWalksTheSameSchema() {
        XCTAssertEqual(StyleValidator.schema, SpecTables.schema)
        XCTAssertNotNil(StyleValidator.schema["paint_line"]?["line-width"])
    }
}
