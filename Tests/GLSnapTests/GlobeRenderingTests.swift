import XCTest
import GLSnap
import GLSnapImage

/// `"projection": {"type": "globe"}` draws the map on a sphere, as MapLibre GL JS does.
final class GlobeRenderingTests: XCTestCase {
    static let style = """
    {"version": 8, "projection": {"type": "globe"}, "sky": {"atmosphere-blend": 0},
     "sources": {"box": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[[-20, -10], [40, -10], [40, 50], [-20, 50], [-20, -10]]]}},
                 "meridian": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[0, -80], [0, 80]]}}},
     "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#00ff00"}},
                {"id": "box", "type": "fill", "source": "box", "paint": {"fill-color": "#ff0000"}},
                {"id": "m", "type": "line", "source": "meridian", "paint": {"line-color": "#0000ff", "line-width": 3}}]}
    """

    private func snapshotter(size: Double, pieceSize: Int = 4096, style: String = GlobeRenderingTests.style) throws -> Snapshotter {
        var limits = Limits()
        limits.pieceSize = pieceSize
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: size, height: size), limits: limits))
        try s.setStyle(json: style)
        return s
    }

    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let o = (y * image.width + x) * 4
        return Array(image.pixels[o..<(o + 4)])
    }

    /// At zoom 1 the whole planet is in view: a sphere of radius worldSize / 2π seen from the
    /// camera's distance (1.5 × height from the center), space (clear) around it, the fill and
    /// line on it where their coordinates are.
    func testTheWorldIsASphere() throws {
        let s = try snapshotter(size: 256)
        let shot = try s.snapshot(camera: CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 1))
        let image = shot.image
        let radius = 1024 / (2 * Double.pi), focal = 1.5 * 256
        let rim = focal * tan(asin(radius / (focal + radius)))
        XCTAssertEqual(pixel(image, 2, 2), [0, 0, 0, 0], "space around the planet is clear")
        XCTAssertEqual(pixel(image, 128 + Int(rim + 1.5), 128), [0, 0, 0, 0])
        XCTAssertEqual(pixel(image, 128 - Int(rim + 1.5), 128), [0, 0, 0, 0])
        // Inside the rim: background (west of the box).
        XCTAssertEqual(pixel(image, 128 - Int(rim - 1.5), 128), [0, 255, 0, 255])
        let box = shot.point(for: Coordinate(latitude: 20, longitude: 20))
        XCTAssertEqual(pixel(image, Int(box.x), Int(box.y)), [255, 0, 0, 255])
        // The box's east edge bends: on the globe 40°E at 45°N lies nearer the center line
        // than 40°E at the equator (on the flat map both share one x).
        let ne = shot.point(for: Coordinate(latitude: 45, longitude: 40)), e = shot.point(for: Coordinate(latitude: 0, longitude: 40))
        XCTAssertLessThan(ne.x, e.x - 5)
        let line = shot.point(for: Coordinate(latitude: -40, longitude: 0))
        let blue = pixel(image, Int(line.x.rounded()), Int(line.y))
        XCTAssertTrue(blue[2] > 200 && blue[0] == 0 && blue[1] < 60 && blue[3] == 255, "\(blue)")
    }

    /// Without a sky the globe still has GL JS's atmosphere (its default blend, 0.8): a glow
    /// just past the rim (the west one: the default light shines from the upper left) where the
    /// sky's `atmosphere-blend: 0` leaves space clear.
    func testTheAtmosphereGlowsPastTheRim() throws {
        let noSky = GlobeRenderingTests.style.replacingOccurrences(of: "\"sky\": {\"atmosphere-blend\": 0},", with: "")
        XCTAssertNotEqual(noSky, GlobeRenderingTests.style)
        let camera = CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 1)
        let glowing = try snapshotter(size: 256, style: noSky).snapshot(camera: camera).image
        let clear = try snapshotter(size: 256).snapshot(camera: camera).image
        let radius = 1024 / (2 * Double.pi), focal = 1.5 * 256
        let rim = focal * tan(asin(radius / (focal + radius)))
        XCTAssertEqual(pixel(clear, 128 - Int(rim + 1.5), 128)[3], 0)
        let glow = pixel(glowing, 128 - Int(rim + 1.5), 128)
        XCTAssertGreaterThan(glow[3], 10, "\(glow)")
        XCTAssertEqual(pixel(glowing, 128 - Int(rim + 3.5), 128), [0, 0, 0, 0], "space past the air stays clear")
        XCTAssertEqual(pixel(glowing, 2, 2), [0, 0, 0, 0])
    }

    /// A coordinate behind the horizon has no screen position; space has no coordinate.
    func testBehindTheHorizonIsNaN() throws {
        let s = try snapshotter(size: 256)
        let shot = try s.snapshot(camera: CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 0))
        XCTAssertTrue(shot.point(for: Coordinate(latitude: 0, longitude: 180)).x.isNaN)
        XCTAssertFalse(shot.point(for: Coordinate(latitude: 0, longitude: 30)).x.isNaN)
        XCTAssertTrue(shot.coordinate(for: Point(x: 1, y: 1)).latitude.isNaN)
        let c = shot.coordinate(for: shot.point(for: Coordinate(latitude: 25, longitude: -35)))
        XCTAssertEqual(c.latitude, 25, accuracy: 1e-6); XCTAssertEqual(c.longitude, -35, accuracy: 1e-6)
    }

    /// Feature queries follow the globe: the box where the globe shows it, nothing in space.
    func testQueriesFollowTheGlobe() throws {
        let s = try snapshotter(size: 256)
        let shot = try s.snapshot(camera: CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 1))
        let box = shot.point(for: Coordinate(latitude: 40, longitude: 30))
        XCTAssertEqual(try shot.queryRenderedFeatures(at: box).map(\.layer), ["box"])
        // West of the box on the globe; the flat map puts the box's west edge at that point.
        let west = shot.point(for: Coordinate(latitude: 10, longitude: -23))
        XCTAssertEqual(try shot.queryRenderedFeatures(at: west).map(\.layer), [])
        XCTAssertEqual(try shot.queryRenderedFeatures(at: Point(x: 2, y: 2)).map(\.layer), [])
    }

    /// Past GL JS's transition (zoom 12) the globe is the flat map, pixel for pixel.
    func testPastTheTransitionTheMapIsFlat() throws {
        let camera = CameraOptions(center: Coordinate(latitude: 20, longitude: 20), zoom: 12.5)
        let globe = try snapshotter(size: 64).snapshot(camera: camera).image
        let flat = try snapshotter(size: 64, style: GlobeRenderingTests.style.replacingOccurrences(of: "\"globe\"", with: "\"mercator\"")).snapshot(camera: camera).image
        XCTAssertEqual(globe, flat)
    }

    /// A projection glsnap cannot read is named in a warning and drawn in Mercator; the globe
    /// is not (it is drawn).
    func testAnUnreadableProjectionIsNamed() throws {
        let s = try snapshotter(size: 16, style: GlobeRenderingTests.style.replacingOccurrences(of: "\"globe\"", with: "\"equal-earth\""))
        XCTAssertTrue(s.styleWarnings.contains { $0.hasPrefix("projection type \"equal-earth\" is not one glsnap reads") }, "\(s.styleWarnings)")
        XCTAssertFalse(try snapshotter(size: 16).styleWarnings.contains { $0.contains("projection") })
    }

    /// A globe view at 2048² drawn in 512-px pieces matches the one-frame render within 0.0005.
    func testGlobeViewInPieces() throws {
        let camera = CameraOptions(center: Coordinate(latitude: 25, longitude: 10), zoom: 2.2, bearing: 20, pitch: 30)
        let whole = try snapshotter(size: 2048).snapshot(camera: camera).image
        let pieces = try snapshotter(size: 2048, pieceSize: 512).snapshot(camera: camera).image
        let mismatch = pixelmatch(whole, pieces, threshold: 0.1, includeAA: true)
        XCTAssertLessThan(Double(mismatch) / Double(whole.width * whole.height), 0.0005, "mismatched pixels: \(mismatch)")
    }
}
