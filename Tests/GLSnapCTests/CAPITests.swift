@testable import GLSnapC
import Foundation
import GLSnap
import GLSnapData
import GLSnapGL
import XCTest

final class CAPITests: XCTestCase {
    let style = ##"{"version":8,"sources":{},"layers":[{"id":"bg","type":"background","paint":{"background-color":"#00ff00"}}]}"##

    private func make(workers: Int32 = 1) throws -> OpaquePointer {
        var o = [UInt8](repeating: 0, count: 40)
        o.withUnsafeMutableBytes { glsnap_options_init($0.baseAddress) }
        o.withUnsafeMutableBytes { $0.storeBytes(of: workers, toByteOffset: 24, as: Int32.self) }
        var error = [CChar](repeating: 0, count: 256)
        let s = o.withUnsafeBytes { glsnap_snapshotter_new($0.baseAddress, &error, error.count) }
        return try XCTUnwrap(s, String(cString: error))
    }

    private func message(_ s: OpaquePointer) -> String { String(cString: glsnap_snapshotter_error(s)!) }

    func testErrorsAreCodesWithMessages() throws {
        let s = try make()
        defer { glsnap_snapshotter_free(s) }
        XCTAssertEqual(glsnap_set_style_json(s, nil, nil), Status.invalidArgument.rawValue)
        XCTAssertEqual(message(s), "json is NULL")
        XCTAssertEqual(glsnap_set_style_json(s, "{", nil), Status.style.rawValue)
        XCTAssertTrue(message(s).hasPrefix("style JSON:"), message(s))
        XCTAssertEqual(glsnap_set_style_json(s, style, nil), Status.ok.rawValue)
        XCTAssertEqual(message(s), "")
        XCTAssertEqual(glsnap_set_visibility(s, "nope", 0), Status.notFound.rawValue)
        XCTAssertEqual(message(s), #"no layer "nope" in the style (layers: "bg")"#)
        var out: UnsafeMutablePointer<CChar>?
        XCTAssertEqual(glsnap_list_layers(s, &out), Status.ok.rawValue)
        XCTAssertEqual(String(cString: out!), #"["bg"]"#)
        glsnap_free(out)
        XCTAssertEqual(glsnap_set_paint_property(nil, "bg", "x", "1"), Status.invalidArgument.rawValue)
        var error = [CChar](repeating: 0, count: 16)
        var o = [UInt8](repeating: 0, count: 40)
        o.withUnsafeMutableBytes { glsnap_options_init($0.baseAddress) }
        o.withUnsafeMutableBytes { $0.storeBytes(of: Int32(9), toByteOffset: 28, as: Int32.self) }
        XCTAssertNil(o.withUnsafeBytes { glsnap_snapshotter_new($0.baseAddress, &error, error.count) })
        XCTAssertEqual(String(cString: error), "backend 9 is no", "truncated to the buffer")
    }

    /// A thread reads its own last error: a pool sharing one snapshotter never sees another's.
    func testErrorMessagesArePerThread() throws {
        let s = try make(workers: 2)
        defer { glsnap_snapshotter_free(s) }
        XCTAssertEqual(glsnap_set_style_json(s, style, nil), Status.ok.rawValue)
        let failed = DispatchSemaphore(value: 0), succeeded = DispatchSemaphore(value: 0)
        var seen = ""
        Thread.detachNewThread {
            _ = glsnap_remove_layer(s, "missing")
            failed.signal()
            succeeded.wait()
            seen = String(cString: glsnap_snapshotter_error(s)!)
            failed.signal()
        }
        failed.wait()
        var camera = [UInt8](repeating: 0, count: 48)
        camera.withUnsafeMutableBytes { $0.storeBytes(of: UInt32(15), toByteOffset: 40, as: UInt32.self) }
        var snap: OpaquePointer?
        XCTAssertEqual(camera.withUnsafeBytes { glsnap_render(s, $0.baseAddress, 8, 8, 1, &snap) }, Status.ok.rawValue)
        XCTAssertEqual(message(s), "")
        succeeded.signal()
        failed.wait()
        XCTAssertEqual(seen, #"no layer "missing" in the style (layers: "bg")"#)
        var length = 0
        let pixels = glsnap_snapshot_pixels(snap, &length)
        XCTAssertEqual(length, 8 * 8 * 4)
        XCTAssertEqual(pixels.map { Array(UnsafeBufferPointer(start: $0, count: 4)) }, [0, 255, 0, 255])
        glsnap_snapshot_free(snap)
    }

    private func problems(_ s: OpaquePointer) -> [String] {
        (0..<glsnap_error_problem_count(s)).map { i in
            String(cString: glsnap_error_problem_path(s, i)!) + " | " + String(cString: glsnap_error_problem_message(s, i)!)
        }
    }

    /// A style refused, or an edit the spec does not allow, lists its problems with their JSON paths.
    func testStyleErrorsListTheirProblems() throws {
        let s = try make()
        defer { glsnap_snapshotter_free(s) }
        let bad = ##"{"version":8,"sources":{},"layers":[{"id":"bg","type":"background","paint":{"background-color":"nope"}},{"id":"x","type":"sparkles"}]}"##
        XCTAssertEqual(glsnap_set_style_json(s, bad, nil), Status.style.rawValue)
        let listed = problems(s)
        XCTAssertEqual(listed.map { $0.components(separatedBy: " | ")[0] }, ["layers[0].paint.background-color", "layers[1].type"], "\(listed)")
        XCTAssertTrue(listed.allSatisfy { !$0.hasSuffix(" | ") }, "\(listed)")
        XCTAssertTrue(message(s).contains("layers[1].type"), message(s))
        XCTAssertNil(glsnap_error_problem_path(s, 2))
        XCTAssertNil(glsnap_error_problem_message(s, -1))
        XCTAssertEqual(glsnap_set_style_file(s, "/nonexistent/style.json"), Status.style.rawValue)
        XCTAssertEqual(problems(s), [" | no such file"])
        XCTAssertEqual(glsnap_set_style_json(s, style, nil), Status.ok.rawValue)
        XCTAssertEqual(glsnap_error_problem_count(s), 0, "none after a success")
        XCTAssertEqual(glsnap_set_paint_property(s, "bg", "background-color", "3"), Status.style.rawValue)
        XCTAssertEqual(problems(s).first?.components(separatedBy: " | ")[0], "layers.bg.paint.background-color", "\(problems(s))")
        XCTAssertEqual(glsnap_remove_layer(s, "missing"), Status.notFound.rawValue)
        XCTAssertEqual(glsnap_error_problem_count(s), 0, "a lookup of ours, not a style problem")
        XCTAssertEqual(glsnap_error_problem_count(nil), 0)
    }

    /// An image past Limits.maxImageSide is GLSNAP_ERR_LIMIT, with the message naming the limit.
    func testImagePastTheLimitHasItsStatus() throws {
        let s = try make()
        defer { glsnap_snapshotter_free(s) }
        XCTAssertEqual(glsnap_set_style_json(s, style, nil), Status.ok.rawValue)
        var camera = [UInt8](repeating: 0, count: 48)
        camera.withUnsafeMutableBytes { $0.storeBytes(of: UInt32(15), toByteOffset: 40, as: UInt32.self) }
        var snap: OpaquePointer?
        XCTAssertEqual(camera.withUnsafeBytes { glsnap_render(s, $0.baseAddress, 70000, 1, 1, &snap) }, Status.limit.rawValue, message(s))
        XCTAssertNil(snap)
        XCTAssertTrue(message(s).contains("pixels per side"), message(s))
    }

    /// A broken tile under strict errors names its source, tile and file.
    func testSourceErrorsNameSourceTileAndFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("glsnap-c-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data([0xff, 0xff, 0xff, 0xff]).write(to: dir.appendingPathComponent("0-0-0.mvt"))
        let s = try make()
        defer { glsnap_snapshotter_free(s) }
        let broken = ##"{"version":8,"sources":{"t":{"type":"vector","tiles":["{z}-{x}-{y}.mvt"],"maxzoom":0}},"layers":[{"id":"l","type":"line","source":"t","source-layer":"x"}]}"##
        XCTAssertEqual(glsnap_set_style_json(s, broken, dir.path + "/"), Status.ok.rawValue, message(s))
        XCTAssertNil(glsnap_error_source(s))
        var camera = [UInt8](repeating: 0, count: 48)
        camera.withUnsafeMutableBytes { $0.storeBytes(of: UInt32(15), toByteOffset: 40, as: UInt32.self) }
        var snap: OpaquePointer?
        XCTAssertEqual(camera.withUnsafeBytes { glsnap_render(s, $0.baseAddress, 16, 16, 1, &snap) }, Status.source.rawValue, message(s))
        XCTAssertEqual(glsnap_error_source(s).map { String(cString: $0) }, "t")
        var z: Int32 = -1, x: Int32 = -1, y: Int32 = -1
        XCTAssertEqual(glsnap_error_source_tile(s, &z, &x, &y), 1)
        XCTAssertEqual([z, x, y], [0, 0, 0])
        XCTAssertEqual(glsnap_error_source_location(s).map { String(cString: $0) }, dir.path + "/0-0-0.mvt")
        XCTAssertEqual(glsnap_error_problem_count(s), 0)
        XCTAssertEqual(glsnap_remove_layer(s, "missing"), Status.notFound.rawValue)
        XCTAssertNil(glsnap_error_source(s), "gone with the next failure")
        XCTAssertEqual(glsnap_error_source_tile(s, nil, nil, nil), 0)
    }

    /// Each GLSnapError case has its status; a GL failure has GLSNAP_ERR_GL.
    func testEachErrorCaseHasItsStatus() {
        let cases: [(GLSnapError, Status)] = [
            (.invalidOptions("x"), .invalidArgument), (.style(source: "s", problems: []), .style),
            (.source(name: "s", tile: nil, location: nil, underlying: SourceError.httpStatus(url: "u", status: 500)), .source),
            (.gl(.missingFunction("glFoo")), .gl), (.render("x"), .render), (.timedOut(seconds: 1), .timedOut),
            (.limit(name: "maxImageSide", value: 70000, max: 65535, message: "x"), .limit),
        ]
        for (error, status) in cases {
            let e = CallError(error)
            XCTAssertEqual(e.status, status, "\(error)")
            XCTAssertEqual(e.message, error.description)
        }
    }
}
