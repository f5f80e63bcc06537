import Foundation
import GLSnapLayout
import GLSnapData

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

    public init(zoom: Double, bearing: Double, globeness: Double) {
        self.zoom = zoom; self.bearing = bearing; self.globeness = globeness
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
