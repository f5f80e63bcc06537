import Foundation
import XCTest

/// The checkout the tests run from: `root` is the folder that holds Package.swift.
public enum TestRepository {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent() // Tests/Support
        .deletingLastPathComponent().deletingLastPathComponent()
}

/// `../shared` (the render suites, style-spec, fixtures) beside the checkout, the one way every test
/// target finds it. `GLSNAP_SHARED=<folder>` names another place. Tests that need it skip, with
/// `absentReason`, when it is not there; the project's own render references
/// (`Tests/GLSnapTests/References`) need none of it.
public enum SharedFolder {
    /// Where it is looked for: `$GLSNAP_SHARED`, else `<root>/../shared`.
    public static var expectedURL: URL {
        if let named = ProcessInfo.processInfo.environment["GLSNAP_SHARED"], !named.isEmpty {
            return URL(fileURLWithPath: named).standardizedFileURL
        }
        return TestRepository.root.deletingLastPathComponent().appendingPathComponent("shared")
    }

    /// The folder, or nil when it is absent.
    public static var url: URL? {
        var isDirectory: ObjCBool = false
        let u = expectedURL
        return FileManager.default.fileExists(atPath: u.path, isDirectory: &isDirectory) && isDirectory.boolValue ? u : nil
    }

    /// Why a test needing `relative` (a path below the folder; "" for the folder) skips.
    public static func absentReason(_ relative: String = "") -> String {
        let path = relative.isEmpty ? expectedURL.path : expectedURL.appendingPathComponent(relative).path
        return "\(path) is not present (../shared beside the checkout, or GLSNAP_SHARED, holds the suites and fixtures)"
    }

    /// `relative` below the folder; throws XCTSkip, naming the path, when it does not exist.
    public static func require(_ relative: String = "") throws -> URL {
        let u = relative.isEmpty ? expectedURL : expectedURL.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: u.path) else { throw XCTSkip(absentReason(relative)) }
        return u
    }
}
