import GLSnapLayout
import GLSnapStyle

/// What a frame over 3D terrain adds: the tiles of the elevated surface, each with its mesh, and
/// the sky's fog over it. The layers that lie on the ground (background, fill, line, raster,
/// hillshade, color-relief) are drawn flat into one texture per surface tile and draped on the
/// mesh, as GL JS renders them to texture; the others are drawn over it.
public struct TerrainFrame {
    /// One tile of the surface: its square and its mesh (x, y in tile units, z in meters with the
    /// exaggeration; the skirt included).
    public struct Tile {
        public var tile: CoveredTile
        public var vertices: [Float]
        public var indices: [UInt32]
        public init(tile: CoveredTile, vertices: [Float], indices: [UInt32]) {
            self.tile = tile; self.vertices = vertices; self.indices = indices
        }
    }

    /// The sky's fog as the terrain shader blends it (GL JS's defaults where the style has no sky:
    /// then the fog's opacity is 0).
    public struct Fog {
        public var fogColor = Color(r: 1, g: 1, b: 1, a: 1)
        public var horizonColor = Color(r: 1, g: 1, b: 1, a: 1)
        public var fogGroundBlend = 1.0
        public var horizonFogBlend = 1.0
        /// 0 below pitch 60, rising to 1 at pitch 70 (GL JS's calculateFogBlendOpacity); 0 without sky.
        public var opacity = 0.0
        public init() {}

        /// GL JS's fade of the fog with the pitch.
        public static func opacity(pitch: Double) -> Double {
            pitch < 60 ? 0 : pitch < 70 ? (pitch - 60) / 10 : 1
        }
    }

    public var tiles: [Tile]
    public var fog: Fog
    /// The surface's elevations (for what is raised onto it).
    public var surface: TerrainSurface
    /// Pixels a side of each tile's draped texture.
    public var textureSize: Int
    /// The heights the ground takes in view (exaggerated meters, sea level included): the sources'
    /// tile covers reach as far as the ground between them.
    public var elevations: ClosedRange<Double> { surface.elevationRange }

    public init(tiles: [Tile], fog: Fog, surface: TerrainSurface, textureSize: Int) {
        self.tiles = tiles; self.fog = fog; self.surface = surface; self.textureSize = textureSize
    }

    /// Whether a layer of this type is draped on the surface (drawn into the tiles' textures).
    public static func isDraped(_ type: LayerType) -> Bool {
        switch type {
        case .background, .fill, .line, .raster, .hillshade, .colorRelief: return true
        case .circle, .symbol, .heatmap, .fillExtrusion: return false
        }
    }
}
