import Foundation
import GLSnapLayout
import GLSnapData
import GLSnapGL

/// The camera a globe view is seen through, for a frame that draws the flat Mercator texture the
/// globe samples (bearing and pitch 0, often at a higher zoom than the camera's, for detail).
///
/// MapLibre GL JS draws each layer straight onto the sphere, sizing what the style gives in pixels
/// at the camera's zoom and turning what is anchored to the viewport by the camera's bearing; the
/// texture's frame takes those two from here instead of from its own flat transform.
public struct GlobeCamera: Sendable, Equatable {
    /// The globe camera's zoom.
    public var zoom: Double
    /// The globe camera's bearing, degrees clockwise.
    public var bearing: Double
    /// How much globe the view is (1: all; less between the projection's transition zooms).
    public var globeness: Double
    /// The latitude of the camera's center, degrees (the sphere has Mercator's scale there).
    public var latitude: Double
    /// Whether lines keep their width on the sphere (widened toward the poles in the texture), as
    /// GL JS draws them straight onto it; with terrain GL JS drapes them from flat tiles instead,
    /// where they keep their width in the map's units.
    public var widensLines: Bool

    public init(zoom: Double, bearing: Double, globeness: Double, latitude: Double, widensLines: Bool = true) {
        self.zoom = zoom; self.bearing = bearing; self.globeness = globeness; self.latitude = latitude
        self.widensLines = widensLines
    }
}

extension Frame {
    /// The bearing the style's viewport anchors turn by: the globe camera's for a globe's
    /// texture, else the frame's own.
    public var viewportBearing: Double { globeCamera?.bearing ?? transform.bearing }

    /// A `*-translate` of (`x`, `y`) pixels, anchored to the map or to the viewport, in `tile`'s
    /// units: as the camera sees it (for a globe's texture, at the globe camera's zoom and bearing,
    /// as GL JS moves the geometry in tile units before it bends it onto the sphere).
    public func translationInTileUnits(_ tile: TileID, _ x: Double, _ y: Double, viewport: Bool) -> (x: Double, y: Double) {
        var x = x, y = y
        if viewport {
            let angle = viewportBearing * .pi / 180
            let s = sin(angle), c = cos(angle)
            (x, y) = (x * c - y * s, x * s + y * c)
        }
        // Pixels at the camera's zoom are 2^(texture zoom - camera zoom) texture pixels.
        let scale = globeCamera.map { pow(2, transform.zoom - $0.zoom) } ?? 1
        return (transform.pixelsToTileUnits(tile, x) * scale, transform.pixelsToTileUnits(tile, y) * scale)
    }
}

extension Painter {
    /// The most a line is widened in a globe's texture: at 85° (past the Mercator map's edge only
    /// the pole caps lie, drawn in the edge's color).
    static let maxGlobeLineWidening = 1 / cos(Mercator.maxLatitude * .pi / 180)

    /// The line program variant for a program's `define` (nil: none): in a globe's texture, with
    /// LINE_GLOBE added (include/line_globe.glsl); on the flat map, `define` as it is.
    func lineVariant(_ define: String?) -> String? {
        guard frame.globeCamera != nil else { return define }
        // ProgramSet writes "#define " before the variant: each further one on a line of its own.
        return define.map { $0 + "\n#define LINE_GLOBE" } ?? "LINE_GLOBE"
    }

    /// Sets a line program's `u_globe_line` and `u_globe_tile` (include/line_globe.glsl) for
    /// `tile` in a globe's texture (nothing on the flat map, whose programs lack them): the
    /// texture pixels per camera pixel, the globeness and the cosine of the center's latitude; the
    /// widest the tile's lines get (at its poleward edge, its buffer included) and the tile's
    /// Mercator y at its top and per tile unit.
    func setGlobeLine(_ line: UniformVec4, _ tileUniform: UniformVec3, tile: TileID) {
        guard let camera = frame.globeCamera else { return }
        let tiles = exp2(Double(tile.z))
        let scale = exp2(frame.transform.zoom - camera.zoom)
        let cosCenter = cos(camera.latitude * .pi / 180)
        let globeness = camera.widensLines ? camera.globeness : 0
        // A quarter tile past its edges holds the buffer and the lines' own widths.
        let top = Double(tile.y) / tiles, bottom = (Double(tile.y) + 1) / tiles
        let reach = 0.25 / tiles
        let poleward = max(abs(0.5 - max(0, top - reach)), abs(0.5 - min(1, bottom + reach)))
        let latitude = min(Mercator.lat(y: 0.5 - poleward).magnitude, Mercator.maxLatitude)
        let widening = max(1, min(cosCenter / cos(latitude * .pi / 180), Painter.maxGlobeLineWidening))
        line.set(Float(scale), Float(globeness), Float(cosCenter), 0)
        tileUniform.set(Float(scale * (1 + (widening - 1) * globeness)), Float(top),
                        Float(1 / (tiles * Double(TileExtent.extent))))
    }
}
