import GLSnapImage
import GLSnapLayout
import XCTest
@testable import GLSnap

/// `Snapshot.data(format:)`, what the command line, the server and the C ABI write.
final class SnapshotDataTests: XCTestCase {
    func testDataInEachFormat() throws {
        var image = RGBAImage(width: 16, height: 8)
        for i in 0..<(16 * 8) { image.pixels[i * 4] = UInt8(i); image.pixels[i * 4 + 3] = 255 }
        let snapshot = Snapshot(image: image, pixelRatio: 1, transform: Transform(width: 16, height: 8, center: (0, 0), zoom: 1))
        XCTAssertEqual(try snapshot.data(format: .png), try snapshot.pngData())
        XCTAssertEqual(try snapshot.data(format: .png, png: .fast), try PNGEncoder(options: .fast).encode(image))
        XCTAssertEqual(try snapshot.data(format: .jpeg), try JPEGEncoder(quality: 90).encode(image))
        XCTAssertEqual(try snapshot.data(format: .jpeg, quality: 50), try JPEGEncoder(quality: 50).encode(image))
        XCTAssertEqual(try snapshot.data(format: .webp, quality: 70), try WebPEncoder(quality: 70).encode(image))
        XCTAssertNotEqual(try snapshot.data(format: .jpeg, quality: 50), try snapshot.data(format: .jpeg, quality: 95))
    }
}
