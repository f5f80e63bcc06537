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
        // A line `#include "FILE"` stands for shaders/FILE, as tools/gen-shaders.py expands it.
        func source(_ name: String) throws -> String {
            let text = try String(contentsOf: shadersDir.appendingPathComponent(name), encoding: .utf8)
            return try text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                guard line.hasPrefix("#include \""), line.hasSuffix("\"") else { return String(line) }
                let file = line.dropFirst("#include \"".count).dropLast()
                var included = try String(contentsOf: shadersDir.appendingPathComponent(String(file)), encoding: .utf8)
                while included.hasSuffix("\n") { included.removeLast() }
                return included
            }.joined(separator: "\n")
        }
        for id in ShaderID.allCases {
            let vs = try source("\(id.rawValue).vertex.glsl")
            let fs = try source("\(id.rawValue).fragment.glsl")
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
