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

    /// Generated/Programs.swift (the typed uniforms) must be what tools/gen-shaders.py writes.
    func testGeneratedProgramsAreCurrent() throws {
        let root = shadersDir.deletingLastPathComponent()
        let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let python else { throw XCTSkip("python3 is not installed") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gen-shaders-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = [root.appendingPathComponent("tools/gen-shaders.py").path,
                       dir.appendingPathComponent("Shaders.swift").path, dir.appendingPathComponent("Programs.swift").path]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        let fresh = try String(contentsOf: dir.appendingPathComponent("Programs.swift"), encoding: .utf8)
        let committed = try String(contentsOf: root.appendingPathComponent("Sources/GLSnapRender/Generated/Programs.swift"), encoding: .utf8)
        XCTAssertEqual(fresh, committed, "Sources/GLSnapRender/Generated/Programs.swift is stale: run tools/gen-shaders.py")
    }

    /// The variants the renderer compiles (`ProgramSet.program(_:define:)`).
    static let variants: [ShaderID: [String]] = [
        .line: ["LINE_DASHED", "LINE_DASHED_PER_FEATURE", "LINE_GLOBE", "LINE_DASHED\n#define LINE_GLOBE"],
        .lineGradient: ["LINE_DASHED", "LINE_GLOBE"], .linePattern: ["LINE_GLOBE"],
    ]

    /// Every uniform GL reports active in a program (or a variant) is one the generated
    /// `Uniforms` declares, with the same type and length, and every declared one is used by
    /// some variant: a uniform the generator missed, or a declaration no shader reads, fails here
    /// instead of becoming a location of -1 that GL silently ignores.
    func testGeneratedUniformsAreTheActiveUniforms() throws {
        let ctx = try GLContext(backend: .osmesa)
        let set = ProgramSet(context: ctx)
        for id in ShaderID.allCases {
            let declared = Dictionary(uniqueKeysWithValues: id.uniforms.map { ($0.name, ($0.type, $0.count)) })
            var used: Set<String> = []
            for define in [nil] + (ShaderTests.variants[id] ?? []) {
                let name = id.rawValue + (define.map { " (\($0))" } ?? "")
                for u in try set.program(id, define: define).activeUniforms {
                    used.insert(u.name)
                    guard let d = declared[u.name] else {
                        XCTFail("\(name): \(u.name) is active but not in the generated uniforms")
                        continue
                    }
                    XCTAssertEqual(d.0, u.type, "\(name): \(u.name)")
                    XCTAssertEqual(d.1, u.count, "\(name): \(u.name)")
                }
            }
            XCTAssertEqual(Set(declared.keys).subtracting(used), [], "\(id.rawValue): declared but read by no variant")
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
