import XCTest
@testable import GLSnapData

final class ResourceResolverTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("glsnap-resolver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("styles"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("tiles"), withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: dir.appendingPathComponent("tiles/a.bin"))
        try Data("{}".utf8).write(to: dir.appendingPathComponent("styles/style.json"))
    }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: dir) }

    func testRelativeAbsoluteAndFileURLs() throws {
        let style = dir.appendingPathComponent("styles/style.json").path
        let resolver = ResourceResolver(baseURL: style)
        XCTAssertEqual(try resolver.filePath(for: "../tiles/a.bin"), dir.path + "/tiles/a.bin")
        XCTAssertEqual(try resolver.load("../tiles/a.bin"), [1, 2, 3])
        XCTAssertEqual(try resolver.load(dir.path + "/tiles/a.bin"), [1, 2, 3])
        XCTAssertEqual(try resolver.load("file://" + dir.path + "/tiles/a.bin"), [1, 2, 3])
        XCTAssertEqual(try ResourceResolver(baseURL: "file://" + style).load("../tiles/a.bin"), [1, 2, 3])
        XCTAssertEqual(try ResourceResolver(baseURL: dir.path).load("tiles/a.bin"), [1, 2, 3], "a folder as base")
        XCTAssertEqual(try resolver.filePath(for: "mbtiles://../tiles/x.mbtiles"), dir.path + "/tiles/x.mbtiles")
        XCTAssertEqual(try resolver.filePath(for: "mbtiles://relative/x.mbtiles"), dir.path + "/styles/relative/x.mbtiles")
        XCTAssertEqual(try resolver.filePath(for: "mbtiles:///abs/x.mbtiles"), "/abs/x.mbtiles")
    }

    func testRewriteAndUnsupportedSchemes() throws {
        let root = dir.path
        let resolver = ResourceResolver(baseURL: nil) { url in
            url.hasPrefix("local://") ? root + "/" + url.dropFirst("local://".count) : nil
        }
        XCTAssertEqual(try resolver.load("local://tiles/a.bin"), [1, 2, 3])
        XCTAssertThrowsError(try resolver.load("ftp://example.com/a.bin")) {
            XCTAssertEqual($0 as? SourceError, .unsupportedURL(url: "ftp://example.com/a.bin", reason:
                "only file paths and file://, mbtiles://, pmtiles://, http:// and https:// URLs are read "
                + "(configure ResourceResolver.rewrite for 'ftp://')"))
        }
    }

    func testMissingFilesAndLimits() throws {
        let resolver = ResourceResolver(baseURL: dir.path + "/", sizeLimit: 2)
        XCTAssertNil(try resolver.loadIfPresent("tiles/none.bin"))
        XCTAssertThrowsError(try resolver.load("tiles/none.bin")) {
            XCTAssertEqual("\($0)", "file not found: \(self.dir.path)/tiles/none.bin (resolved from 'tiles/none.bin')")
        }
        XCTAssertThrowsError(try resolver.load("tiles/a.bin")) {
            XCTAssertEqual($0 as? SourceError, .tooLarge(url: "tiles/a.bin", size: 3, limit: 2))
        }
        XCTAssertThrowsError(try resolver.load("tiles")) {
            XCTAssertEqual($0 as? SourceError, .unreadable(path: self.dir.path + "/tiles", reason: "not a regular file"))
        }
    }
}
