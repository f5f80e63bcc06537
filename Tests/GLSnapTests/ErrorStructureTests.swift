import XCTest
import GLSnap
import GLSnapData
import GLSnapGL
import GLSnapStyle

/// A `GLSnapError` carries what its sentence is made of: a style's problems with their JSON paths,
/// a broken tile's source, tile, file and decode error, a GL failure's `GLError`; the sentence
/// stays the one users read.
final class ErrorStructureTests: XCTestCase {
    private func error(_ body: () throws -> Void) -> GLSnapError? {
        do { try body() } catch let e as GLSnapError { return e } catch { XCTFail("not a GLSnapError: \(error)") }
        return nil
    }

    func testRefusedStyleGivesEachProblemWithItsPath() throws {
        let style = #"""
        {"version": 8, "sources": {},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "not a color"}},
                    {"id": "x", "type": "sparkles"}]}
        """#
        var options = MapSnapshotOptions(size: Size(width: 16, height: 16))
        options.styleErrors = .fail
        let e = try XCTUnwrap(error { try Snapshotter(options: options).setStyle(json: style) })
        guard case let .style(source, problems) = e else { return XCTFail("expected .style, got \(e)") }
        XCTAssertEqual(source, "inline JSON")
        XCTAssertEqual(problems.map(\.path), ["layers[0].paint.background-color", "layers[1].type"], "\(problems)")
        XCTAssertTrue(problems.allSatisfy { !$0.message.isEmpty })
        XCTAssertEqual(e.problems, problems)
        XCTAssertEqual("\(e)", "style inline JSON: The style is invalid: " + problems.map(\.description).joined(separator: "; "))
    }

    func testUnreadableStyleIsOneProblemWithoutAPath() throws {
        let missing = try XCTUnwrap(error { try Snapshotter(options: MapSnapshotOptions(size: Size(width: 16, height: 16))).setStyle(path: "/nonexistent/style.json") })
        XCTAssertEqual(missing.problems, [StyleProblem(path: "", message: "no such file")])
        XCTAssertEqual("\(missing)", "style /nonexistent/style.json: no such file")
        let notJSON = try XCTUnwrap(error { try Snapshotter(options: MapSnapshotOptions(size: Size(width: 16, height: 16))).setStyle(json: "{\"version\": 8,\n \"layers\": [") })
        XCTAssertEqual(notJSON.problems.map(\.path), [""])
        XCTAssertEqual(notJSON.problems.first?.line, 2)
        XCTAssertTrue("\(notJSON)".hasPrefix("style inline JSON: The style is not valid JSON:"), "\(notJSON)")
    }

    func testBrokenTileKeepsSourceTileFileAndDecodeError() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data([0xff, 0xff, 0xff, 0xff]).write(to: dir.appendingPathComponent("0-0-0.mvt"))
        let style = #"""
        {"version": 8, "sources": {"t": {"type": "vector", "tiles": ["{z}-{x}-{y}.mvt"], "maxzoom": 0}},
         "layers": [{"id": "l", "type": "line", "source": "t", "source-layer": "hello"}]}
        """#
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 16, height: 16)))
        try s.setStyle(json: style, baseURL: dir.path + "/")
        let e = try XCTUnwrap(error { _ = try s.snapshot(camera: CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 0)) })
        guard case let .source(name, tile, location, underlying) = e else { return XCTFail("expected .source, got \(e)") }
        XCTAssertEqual(name, "t")
        XCTAssertEqual(tile, TileID(z: 0, x: 0, y: 0))
        XCTAssertEqual(location, dir.path + "/0-0-0.mvt")
        XCTAssertTrue(underlying is TileDecodeError, "\(type(of: underlying)): \(underlying)")
        XCTAssertEqual("\(e)", "source \"t\": tile 0/0/0 (\(dir.path)/0-0-0.mvt): \(underlying)")
    }

    func testSourceThatCannotBeSetUpKeepsItsError() throws {
        let style = #"""
        {"version": 8, "sources": {"m": {"type": "vector", "url": "mbtiles://missing.mbtiles"}},
         "layers": [{"id": "f", "type": "fill", "source": "m", "source-layer": "x"}]}
        """#
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: 16, height: 16)))
        let e = try XCTUnwrap(error { try s.setStyle(json: style, baseURL: "/nonexistent-glsnap/") })
        guard case let .source(name, tile, _, underlying) = e else { return XCTFail("expected .source, got \(e)") }
        XCTAssertEqual(name, "m")
        XCTAssertNil(tile)
        XCTAssertTrue(underlying is SourceError, "\(type(of: underlying)): \(underlying)")
        XCTAssertEqual("\(e)", "source \"m\": \(underlying)")
    }

    /// A piece wider than the GL framebuffer limit fails in GLSnapGL; the GLError reaches the caller.
    func testGLFailureKeepsTheGLError() throws {
        var options = MapSnapshotOptions(size: Size(width: 20000, height: 4))
        options.limits.pieceSize = 32768
        let s = Snapshotter(options: options)
        try s.setStyle(json: #"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background"}]}"#)
        let e = try XCTUnwrap(error { _ = try s.snapshot(camera: CameraOptions(center: Coordinate(latitude: 0, longitude: 0), zoom: 4)) })
        guard case .gl(.size(let width, _, let max)) = e else { return XCTFail("expected .gl(.size), got \(e)") }
        XCTAssertEqual(width, 20000)
        XCTAssertLessThan(max, 20000)
        XCTAssertTrue("\(e)".hasPrefix("render failed: image size 20000x"), "\(e)")
    }

    func testLimitNamesTheLimitItPasses() throws {
        let e = try XCTUnwrap(error { _ = try MapSnapshotOptions(size: Size(width: 70000, height: 10)).pixelSize(streamed: true) })
        guard case let .limit(name, value, max, _) = e else { return XCTFail("expected .limit, got \(e)") }
        XCTAssertEqual(name, "maxImageSide")
        XCTAssertEqual(value, 70000)
        XCTAssertEqual(max, Double(Limits.default.maxImageSide))
        XCTAssertEqual("\(e)", "invalid snapshot options: image 70000x10 pixels exceeds the limit of \(Limits.default.maxImageSide) pixels per side")
        let memory = try XCTUnwrap(error { _ = try MapSnapshotOptions(size: Size(width: 20000, height: 20000)).pixelSize() })
        guard case .limit("maxImagePixels", 4e8, _, _) = memory else { return XCTFail("expected .limit, got \(memory)") }
    }
}
