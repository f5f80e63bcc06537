import GLSnapGL
import GLSnapLayout
import GLSnapStyle

/// Where on its feature a vertex reads the terrain's height.
enum ElevationAnchor {
    /// The point it is a corner of (circles, heatmap kernels).
    case pointCenter
    /// The centroid of its feature (extrusions: a building stands level).
    case featureCentroid
}

extension Painter {
    /// Meters a ground-level extrusion's floor sinks below its centroid's height over terrain, so
    /// that it does not hang above a slope (GL JS's basement).
    static let extrusionBasement: Float = 10

    /// Points the shader's `a_ele` at the terrain's height under each vertex of the tile's geometry,
    /// or at 0 when the frame is flat (every draw sets it: a constant outlives the program that set it).
    /// The buffer returned must live until the draw is issued.
    func bindElevation(_ shader: ShaderID, tile: CoveredTile, box: GeometryBox, anchor: ElevationAnchor) -> VertexBuffer? {
        guard let i = shader.attributes.firstIndex(of: "a_ele") else { return nil }
        let location = UInt32(i)
        guard let surface = frame.terrain?.surface,
              case .int16(let positions)? = box.geometry.streams.first(where: { $0.attribute == "a_pos" })?.data else {
            context.setAttribute(location, constant: [0])
            return nil
        }
        let id = tile.id, wrap = tile.wrap
        let heights: [Float]
        switch anchor {
        case .pointCenter:
            heights = surface.pointElevations(packedPositions: positions, in: id, wrap: wrap)
        case .featureCentroid:
            let normals = box.geometry.streams.first(where: { $0.attribute == "a_normal_ed" })?.data
            guard case .int16(let n)? = normals else {
                context.setAttribute(location, constant: [0])
                return nil
            }
            heights = surface.centroidElevations(positions: positions, normals: n, spans: box.geometry.spans, in: id, wrap: wrap)
        }
        let buffer = VertexBuffer(context: context, data: heights)
        context.setAttribute(VertexAttribute(location: location, components: 1, type: .float), buffer)
        return buffer
    }

    /// Whether a layer of this type is raised onto the terrain per vertex (drawn with the frame's
    /// own camera, not the flat one at the center's height).
    static func isRaisedOntoTerrain(_ type: LayerType) -> Bool {
        switch type {
        case .circle, .heatmap, .fillExtrusion: return true
        case .background, .fill, .line, .raster, .hillshade, .colorRelief, .symbol: return false
        }
    }
}
