import Foundation
import GLSnap
import GLSnapGL
import GLSnapImage
import GLSnapStyle

/// Real styles on real tiles (`<suite>/<case>/case.json` + `expected.png`), judged with pixelmatch
/// threshold 0.1 counting anti-aliased pixels; a case passes at a mismatched fraction ≤ 0.005.
/// With `withoutSymbols`, the style's symbol layers are dropped and `expected-nosymbols.png` is the
/// reference.
package struct MapsSuite {
    package static let threshold = 0.1
    package static let allowed = 0.005

    package var suiteDir: String
    /// The folder `case.json`'s `style` paths are relative to.
    package var root: String
    package var withoutSymbols: Bool
    package var filter: CaseFilter
    package var backend: Backend
    package var outputDir: String

    package init(suiteDir: String, root: String, withoutSymbols: Bool, filter: CaseFilter, backend: Backend, outputDir: String) {
        self.suiteDir = suiteDir; self.root = root; self.withoutSymbols = withoutSymbols
        self.filter = filter; self.backend = backend; self.outputDir = outputDir
    }

    /// The camera and size of one case.
    package struct MapCase {
        package var style: String
        package var center: Coordinate?
        package var zoom: Double?
        package var bearing: Double?
        package var pitch: Double?
        package var width = 512.0
        package var height = 512.0
        package var pixelRatio = 1.0

        /// Reads a parsed `case.json`; `style` is required, the rest falls back to the style's camera
        /// and a 512×512 image at ratio 1.
        package init(json: JSON, path: String) throws {
            guard let style = json["style"]?.stringValue else {
                throw ConformanceIOError(message: "\(path): \"style\" must name a style file")
            }
            self.style = style
            if let c = json["center"]?.arrayValue, c.count >= 2, let lon = c[0].finiteNumber, let lat = c[1].finiteNumber {
                center = Coordinate(latitude: lat, longitude: lon)
            }
            zoom = json["zoom"]?.finiteNumber
            bearing = json["bearing"]?.finiteNumber
            pitch = json["pitch"]?.finiteNumber
            if let w = json["width"]?.finiteNumber { width = w }
            if let h = json["height"]?.finiteNumber { height = h }
            if let r = json["pixelRatio"]?.finiteNumber { pixelRatio = r }
        }
    }

    package func run() throws -> SuiteReport {
        var report = SuiteReport(suite: withoutSymbols ? "maps-nosymbols" : "maps")
        let comparer = ImageComparer(threshold: MapsSuite.threshold, includeAA: true)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: suiteDir) else {
            throw ConformanceIOError(message: "suite \(suiteDir): cannot list the folder")
        }
        for name in names.sorted() where filter.matches(category: "", name: name) {
            let folder = suiteDir + "/" + name
            guard FileManager.default.fileExists(atPath: folder + "/case.json") else { continue }
            let result = runCase(name: name, folder: folder, comparer: comparer)
            if let d = result.difference {
                print("\(name): mismatch \(SuiteReport.format(d)) (\(result.status == .passed ? "pass" : "fail"))")
            } else {
                print("\(name): \(result.status == .skipped ? "skipped" : "error") \(result.reason ?? "") (\(result.status == .skipped ? "skip" : "fail"))")
            }
            fflush(stdout)
            report.add(result)
        }
        return report
    }

    package func runCase(name: String, folder: String, comparer: ImageComparer) -> CaseResult {
        let start = Date()
        var result = CaseResult(id: name, status: .failed, difference: nil, allowed: MapsSuite.allowed, reason: nil, seconds: 0)
        let expectedPath = folder + (withoutSymbols ? "/expected-nosymbols.png" : "/expected.png")
        let outFolder = outputDir + "/" + (withoutSymbols ? "maps-nosymbols" : "maps") + "/" + name
        // Images of an earlier run would mislead next to this run's result.
        try? FileManager.default.removeItem(atPath: outFolder)
        do {
            if !FileManager.default.fileExists(atPath: expectedPath) {
                result.status = .skipped
                result.reason = "no \((expectedPath as NSString).lastPathComponent)"
            } else {
                let casePath = folder + "/case.json"
                let mapCase = try MapCase(json: try JSON.parse(try SuiteFiles.readText(casePath)), path: casePath)
                let image = try render(mapCase)
                comparer.judge(image, expected: [expectedPath], allowed: MapsSuite.allowed, into: &result, folder: outFolder)
            }
        } catch {
            result.status = .failed
            result.reason = "\(error)"
        }
        result.seconds = Date().timeIntervalSince(start)
        return result
    }

    private func render(_ mapCase: MapCase) throws -> RGBAImage {
        let options = MapSnapshotOptions(size: Size(width: mapCase.width, height: mapCase.height),
                                         pixelRatio: mapCase.pixelRatio)
        let snapshotter = Snapshotter(options: options, configuration: .init(backend: backend))
        let stylePath = mapCase.style.hasPrefix("/") ? mapCase.style
            : ((root + "/" + mapCase.style) as NSString).standardizingPath
        if withoutSymbols {
            let style = try JSON.parse(try SuiteFiles.readText(stylePath))
            let folder = (stylePath as NSString).deletingLastPathComponent + "/"
            try snapshotter.setStyle(json: MapsSuite.droppingSymbolLayers(style).text, baseURL: folder)
        } else {
            try snapshotter.setStyle(path: stylePath)
        }
        snapshotter.setCamera(CameraOptions(center: mapCase.center, zoom: mapCase.zoom,
                                            bearing: mapCase.bearing, pitch: mapCase.pitch))
        return try snapshotter.snapshot().image
    }

    /// The style with every layer of type "symbol" removed.
    package static func droppingSymbolLayers(_ style: JSON) -> JSON {
        guard var object = style.objectValue, let layers = object["layers"]?.arrayValue else { return style }
        object["layers"] = .array(layers.filter { $0["type"]?.stringValue != "symbol" })
        return .object(object)
    }
}
