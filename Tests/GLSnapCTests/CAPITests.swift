@testable import GLSnapC
import Foundation
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
}
