import XCTest
import Foundation
import GLSnapGL
@testable import GLSnapRender

final class ShaderTests: XCTestCase {
    private var shadersDir: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shaders")
    }

    /// The generated Swift must hold exactly the GLSL files: run tools/gen-shaders.py when this fails.
    func testGeneratedShadersAreCurrent() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: shadersDir.path).filter { $0.hasSuffix(".glsl") }
        let names = Set(files.map { String($0.split(separator: ".")[0]) })
        XCTAssertEqual(names, Set(ShaderID.allCases.map(\.rawValue)), "shaders/ and ShaderID list different programs")
        for id in ShaderID.allCases {
            let vs = try String(contentsOf: shadersDir.appendingPathComponent("\(id.rawValue).vertex.glsl"), encoding: .utf8)
            let fs = try String(contentsOf: shadersDir.appendingPathComponent("\(id.rawValue).fragment.glsl"), encoding: .utf8)
            XCTAssertEqual(id.vertexSource, vs, "\(id.rawValue).vertex.glsl changed: run tools/gen-shaders.py")
            XCTAssertEqual(id.fragmentSource, fs, "\(id.rawValue).fragment.glsl changed: run tools/gen-shaders.py")
        }
    }

    func testEveryProgramCompilesAndLinksOnOSMesa() throws {
        let ctx = try GLContext(backend: .osmesa)
        let set = ProgramSet(context: ctx)
        for id in ShaderID.allCases {
            XCTAssertNoThrow(try set.program(id), "\(id.rawValue)")
        }
    }
}
