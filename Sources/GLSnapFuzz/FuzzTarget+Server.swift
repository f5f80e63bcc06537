import Foundation
import GLSnapImage
import GLSnapServer

extension FuzzTarget {
    /// The declared parameters are applied (each set to red, plus one undeclared name), as a
    /// style's `image` expression with `params` does.
    static func svgParameters(_ bytes: [UInt8]) {
        let declared = SVGParameters.declared(in: bytes)
        var values = declared.mapValues { _ in "#ff0000" }
        values["undeclared"] = "rgba(0, 0, 255, 0.5)"
        _ = SVGParameters.apply(values, to: bytes)
    }

    /// The input is the request path. No style is served, so every well-formed style route is
    /// checked to the end by the router and then answered 404 without rendering.
    static func route(_ bytes: [UInt8]) {
        _ = service.handle(method: "GET", path: String(decoding: bytes, as: UTF8.self))
    }

    /// A service serving no style. `ServerConfig.Paths` has no public initializer, so the
    /// configuration comes from `singleStyle` on an empty scratch file, with that style removed.
    private static let service: MapService = {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("glsnap-fuzz-route.json").path
        do {
            guard FileManager.default.createFile(atPath: file, contents: Data()) else { throw CocoaError(.fileWriteUnknown) }
            var config = try ServerConfig.singleStyle(path: file)
            config.styles = []
            return try MapService(config: config)
        } catch {
            preconditionFailure("cannot set up the route fuzz target's service (\(file)): \(error)")
        }
    }()
}
