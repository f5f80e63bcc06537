import Foundation
import XCTest
@testable import GLSnap
import GLSnapImage

/// An image source whose corners are not a parallelogram maps its picture as a plane seen in
/// perspective (GL JS 6's projective mapping), not as two affine triangles.
final class ImageSourceProjectiveTests: XCTestCase {
    func testTrapezoidMapsTheImageCenterToTheDiagonalsCrossing() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("glsnap-projective-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // 64×64: the top half red, the bottom half blue.
        var pixels = [UInt8]()
        for y in 0..<64 { for _ in 0..<64 { pixels += y < 32 ? [255, 0, 0, 255] : [0, 0, 255, 255] } }
        let png = try ImageEncoder(format: .png).encode(RGBAImage(width: 64, height: 64, pixels: pixels))
        try Data(png).write(to: dir.appendingPathComponent("halves.png"))
        // A trapezoid 10 degrees wide at the top, 20 at the bottom, about 20 degrees high near the
        // equator: its diagonals cross about a third of the way down, where the halves meet.
        let style = """
        {"version": 8, "center": [0, 0], "zoom": 2,
         "sources": {"i": {"type": "image", "url": "halves.png",
           "coordinates": [[-5, 10], [5, 10], [10, -10], [-10, -10]]}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "r", "type": "raster", "source": "i", "paint": {"raster-fade-duration": 0}}]}
        """
        try style.write(to: dir.appendingPathComponent("style.json"), atomically: true, encoding: .utf8)
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 256, height: 256)))
        try s.setStyle(path: dir.appendingPathComponent("style.json").path)
        let snapshot = try s.snapshot()
        let image = snapshot.image
        func pixel(_ lon: Double, _ lat: Double) -> [Int] {
            let p = snapshot.point(for: Coordinate(latitude: lat, longitude: lon))
            let i = (Int(p.y) * image.width + Int(p.x)) * 4
            return image.pixels[i..<(i + 4)].map(Int.init)
        }
        // Affinely, the halves would meet at the middle (0°); projectively, at the diagonals'
        // crossing, 3.3° north. 1.5° north lies between: blue only when the mapping is projective.
        XCTAssertEqual(pixel(0, 1.5), [0, 0, 255, 255], "just south of where the halves meet")
        XCTAssertEqual(pixel(0, 5), [255, 0, 0, 255], "north of it")
        XCTAssertEqual(pixel(0, -5), [0, 0, 255, 255], "south")
    }
}
