import GLSnapImage

/// A decoded raster image for one tile (or an image source), boxed so its GPU texture can be
/// cached by identity and shared by snapshots.
public final class RasterBox: @unchecked Sendable {
    /// What the pixels mean.
    public enum Kind: Sendable, Equatable {
        /// Colors, premultiplied by alpha (raster layers).
        case color
        /// Encoded elevations (raster-dem), straight RGBA with a one-pixel border on every side
        /// copied from the edge (MapLibre's DEMData backfill); `unpack` turns RGB into meters.
        case dem(unpack: [Float])
    }

    public let image: RGBAImage
    public let kind: Kind
    /// The quad's four corners in tile units (top-left, top-right, bottom-right, bottom-left), for
    /// image sources placed by coordinates; nil for a tile that fills its square.
    public let corners: [Int16]?

    public init(image: RGBAImage, kind: Kind = .color, corners: [Int16]? = nil) {
        precondition(corners == nil || corners?.count == 8, "a raster quad has four corners")
        self.image = image; self.kind = kind; self.corners = corners
    }

    /// Premultiplies straight-alpha pixels in place (textures are sampled premultiplied, as MapLibre uploads them).
    public static func premultiplied(_ image: RGBAImage) -> RGBAImage {
        var out = image
        out.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i + 3 < p.count {
                let a = UInt32(p[i + 3])
                if a != 255 {
                    p[i] = UInt8((UInt32(p[i]) * a + 127) / 255)
                    p[i + 1] = UInt8((UInt32(p[i + 1]) * a + 127) / 255)
                    p[i + 2] = UInt8((UInt32(p[i + 2]) * a + 127) / 255)
                }
                i += 4
            }
        }
        return out
    }
}
