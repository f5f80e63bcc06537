/// How much geometry one tile layer may tessellate into, so that a hostile tile or GeoJSON source
/// ends with an error naming it instead of exhausting memory or time. `GLSnap.Limits` sets it.
public struct TessellationBudget: Sendable, Equatable {
    /// Most vertices plus indices of one tile layer.
    public var maxElements: Int
    /// Most earcut steps (ear tests and ring nodes visited) per polygon vertex; a polygon gets
    /// at least `minTriangulationSteps`.
    public var triangulationStepsPerVertex: Int

    /// Steps any polygon may take, however few its vertices.
    public static let minTriangulationSteps = 1 << 20

    public init(maxElements: Int, triangulationStepsPerVertex: Int) {
        precondition(maxElements > 0 && triangulationStepsPerVertex > 0, "tessellation budget must be positive")
        self.maxElements = maxElements
        self.triangulationStepsPerVertex = triangulationStepsPerVertex
    }

    /// No bound (for callers that bound their input themselves).
    public static let unlimited = TessellationBudget(maxElements: .max, triangulationStepsPerVertex: .max)

    /// The earcut steps allowed for a polygon of `vertices` vertices at `perVertex` steps each.
    public static func triangulationSteps(vertices: Int, perVertex: Int) -> Int {
        let (product, overflow) = vertices.multipliedReportingOverflow(by: perVertex)
        return overflow ? .max : max(minTriangulationSteps, product)
    }
}

/// A tile layer over its `TessellationBudget`.
public enum TessellationError: Error, CustomStringConvertible, Equatable {
    /// The layer's vertices and indices passed `limit`.
    case tooManyElements(layer: String, elements: Int, limit: Int)
    /// A polygon (often self-intersecting) that earcut could not triangulate in `steps` steps.
    case polygonTooComplex(layer: String, vertices: Int, steps: Int)

    public var description: String {
        switch self {
        case let .tooManyElements(layer, elements, limit):
            return "layer \"\(layer)\": tessellated geometry needs over \(limit) vertices and indices (at least \(elements)); "
                + "over the limit Limits.maxTileGeometry"
        case let .polygonTooComplex(layer, vertices, steps):
            return "layer \"\(layer)\": a polygon of \(vertices) vertices could not be triangulated within \(steps) steps "
                + "(is it self-intersecting?); over the limit Limits.triangulationStepsPerVertex"
        }
    }
}
