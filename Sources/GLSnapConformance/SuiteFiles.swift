import Foundation

/// Whole-file reads and writes; errors name the path.
package enum SuiteFiles {
    package static func readBytes(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConformanceIOError(message: "cannot read \(path)")
        }
        return [UInt8](data)
    }

    package static func readText(_ path: String) throws -> String {
        String(decoding: try readBytes(path), as: UTF8.self)
    }

    /// Writes a file, making its folder first if needed.
    package static func writeBytes(_ bytes: [UInt8], to path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw ConformanceIOError(message: "cannot write \(path)")
        }
    }
}
