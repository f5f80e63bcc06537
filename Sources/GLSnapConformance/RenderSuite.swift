import Foundation
import GLSnap
import GLSnapGL
import GLSnapImage
import GLSnapStyle

/// The GL render-test suite (`<suite>/render/tests/<category>/<case>/style.json` beside
/// `expected*.png`), judged like the GL harness: pixelmatch threshold 0.13 without anti-aliased
/// pixels, the best of the expected images, pass when the mismatched fraction ≤ `allowed`.
package struct RenderSuite {
    package static let threshold = 0.13

    package var suiteDir: String
    package var filter: CaseFilter
    package var backend: Backend
    /// Where failing cases' `actual.png` and `diff.png` go: `<outputDir>/<category>/<case>/`.
    package var outputDir: String
    package var verbose: Bool

    package init(suiteDir: String, filter: CaseFilter, backend: Backend, outputDir: String, verbose: Bool) {
        self.suiteDir = suiteDir; self.filter = filter; self.backend = backend
        self.outputDir = outputDir; self.verbose = verbose
    }

    /// The selected cases as (category, case name, case folder), sorted. A case is any folder under
    /// a category that holds a `style.json`; its name is its path below the category, so nested
    /// cases (`line-dasharray/round/segments`) are found too.
    package func cases() throws -> [(category: String, name: String, folder: String)] {
        try RenderSuite.cases(in: suiteDir, kind: "render", filter: filter)
    }

    /// The cases of `<suiteDir>/<kind>/tests` (render or query) that `filter` selects, sorted.
    package static func cases(in suiteDir: String, kind: String, filter: CaseFilter) throws -> [(category: String, name: String, folder: String)] {
        let testsDir = suiteDir + "/" + kind + "/tests"
        let fm = FileManager.default
        guard let categories = try? fm.contentsOfDirectory(atPath: testsDir) else {
            throw ConformanceIOError(message: "suite \(suiteDir): no \(kind)/tests folder")
        }
        var found: [(String, String, String)] = []
        for category in categories.sorted() where !category.hasPrefix(".") {
            var names: [String] = []
            collectCases(in: testsDir + "/" + category, prefix: "", depth: 0, into: &names)
            for name in names.sorted() where filter.matches(category: category, name: name) {
                found.append((category, name, testsDir + "/" + category + "/" + name))
            }
        }
        return found
    }

    /// The deepest nesting of case folders searched below a category.
    private static let maxCaseDepth = 8

    private static func collectCases(in folder: String, prefix: String, depth: Int, into names: inout [String]) {
        guard depth < maxCaseDepth,
              let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries where !entry.hasPrefix(".") {
            let path = folder + "/" + entry
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            let name = prefix.isEmpty ? entry : prefix + "/" + entry
            if FileManager.default.fileExists(atPath: path + "/style.json") { names.append(name) }
            collectCases(in: path, prefix: name, depth: depth + 1, into: &names)
        }
    }

    /// Runs every selected case, printing a line per category and the summary; returns the report.
    package func run() throws -> SuiteReport {
        var report = SuiteReport(suite: "render")
        let comparer = ImageComparer(threshold: RenderSuite.threshold, includeAA: false)
        let all = try cases()
        var index = 0
        while index < all.count {
            let category = all[index].category
            var passed = 0, total = 0
            while index < all.count, all[index].category == category {
                let c = all[index]
                let result = runCase(id: "\(c.category)/\(c.name)", folder: c.folder, comparer: comparer)
                if result.status == .passed { passed += 1 }
                if result.status != .skipped { total += 1 }
                if verbose, result.status != .passed {
                    print("  \(result.id): \(result.status.rawValue) \(result.reason ?? "")")
                }
                report.add(result)
                index += 1
            }
            print("\(category): \(passed)/\(total) passed")
            fflush(stdout)
        }
        return report
    }

    /// One case, start to end; never throws: every problem becomes the case's reason.
    package func runCase(id: String, folder: String, comparer: ImageComparer) -> CaseResult {
        let start = Date()
        var result = CaseResult(id: id, status: .failed, difference: nil, allowed: RenderCaseSpec.defaultAllowed,
                                reason: nil, seconds: 0)
        let outFolder = outputDir + "/" + id
        let expected = expectedImages(in: folder)
        // Images of an earlier run would mislead next to this run's result.
        try? FileManager.default.removeItem(atPath: outFolder)
        do {
            let text = try SuiteFiles.readText(folder + "/style.json")
            let style = try JSON.parse(text)
            let spec = RenderCaseSpec(style: style)
            result.allowed = spec.allowed
            if expected.isEmpty {
                result.status = .skipped
                result.reason = "no expected image"
            } else if !spec.unsupported.isEmpty {
                result.reason = spec.unsupported.joined(separator: "; ")
            } else {
                let (image, warnings) = try render(styleText: text, spec: spec)
                result.warnings = warnings
                comparer.judge(image, expected: expected, allowed: spec.allowed, into: &result, folder: outFolder)
            }
        } catch {
            result.status = .failed
            result.reason = "\(error)"
        }
        result.seconds = Date().timeIntervalSince(start)
        return result
    }

    /// Draws the case in a fresh snapshotter, after carrying out its operations. Broken sources
    /// and tiles are drawn around, as in the GL harness (its invalid-GeoJSON cases expect the map
    /// without them); what was skipped comes back as warnings.
    private func render(styleText: String, spec: RenderCaseSpec) throws -> (RGBAImage, [String]) {
        let (snapshotter, warnings) = try RenderSuite.prepare(styleText: styleText, spec: spec, suiteDir: suiteDir, backend: backend)
        let snapshot = try snapshotter.snapshot()
        var image = snapshot.image
        if spec.showPadding {
            DebugPadding.draw(on: &image, padding: snapshotter.camera.padding, width: spec.width, height: spec.height,
                              pixelRatio: spec.pixelRatio)
        }
        if let report = spec.reportSize { image = HarnessCanvas.reported(image, width: report.width, height: report.height) }
        return (image, warnings + snapshot.warnings)
    }

    /// A fresh snapshotter with the case's style, its operations carried out and its camera set:
    /// what the render and query runners draw, with a warning for each edit refused (GL JS
    /// fires an error event for those and draws on).
    /// `limits` are the snapshotter's (the project's references draw some cases in small pieces).
    package static func prepare(styleText: String, spec: RenderCaseSpec, suiteDir: String, backend: Backend,
                                limits: Limits = .default) throws -> (Snapshotter, [String]) {
        var options = MapSnapshotOptions(size: Size(width: spec.width, height: spec.height),
                                         pixelRatio: spec.pixelRatio, limits: limits, sourceErrors: .skip,
                                         crossSourceCollisions: spec.crossSourceCollisions)
        options.debug = spec.debug
        options.terrainSkirts = spec.terrainSkirts
        // The expected images hold the atmosphere's faint glow as GL JS's harness stores it.
        options.excessLight = .wrappedAsGLJSTests
        let snapshotter = Snapshotter(options: options, configuration: .init(backend: backend))
        let rewrite = makeLocalRewrite(suiteDir: suiteDir)
        snapshotter.resourceRewrite = rewrite
        let baseURL = suiteDir + "/"
        func readImage(_ path: String, for operation: String) throws -> RGBAImage {
            let file = path.hasPrefix("/") ? path : suiteDir + "/" + path
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ConformanceIOError(message: "\(operation): cannot read \(file)")
            }
            // The harness draws the picture into a 2D canvas, which converts tagged colors to sRGB.
            return BrowserColor.toSRGB(try ImageDecoder().decode([UInt8](data)), png: [UInt8](data))
        }
        if let canvas = spec.fakeCanvas {
            snapshotter.setCanvas(canvas.id, image: try readImage(canvas.image, for: "addFakeCanvas"))
        }
        try snapshotter.setStyle(json: styleText, baseURL: baseURL)
        var transitions = PaintTransitions()
        var warnings: [String] = []
        // GL JS's map clamps the camera's zoom into its zoom range where the snapshot API refuses one outside it.
        if snapshotter.camera.zoom == nil, let zoom = snapshotter.getStyle()?["zoom"]?.numberValue,
           let clamped = RenderCaseSpec.clampedZoom(zoom) {
            snapshotter.setCamera(CameraOptions(zoom: clamped))
            warnings.append("style zoom \(zoom) is outside \(RenderCaseSpec.zooms): drawn at \(clamped), as GL JS clamps it")
        }
        func moveCamera(_ change: (inout CameraOptions) -> Void) {
            var camera = snapshotter.camera
            change(&camera)
            snapshotter.setCamera(camera)
        }
        for op in spec.operations {
            switch op {
            case .wait(let milliseconds): transitions.wait(milliseconds)
            case let .setFeatureState(source, sourceLayer, id, state):
                snapshotter.setFeatureState(source: source, sourceLayer: sourceLayer, id: id, state: state)
            case let .removeFeatureState(source, sourceLayer, id, key):
                snapshotter.removeFeatureState(source: source, sourceLayer: sourceLayer, id: id, key: key)
            case .editStyle(let edit):
                let before = snapshotter.getStyle() ?? .null
                do {
                    try edit.apply(to: snapshotter)
                } catch let e as StyleEditError {
                    // GL JS fires an error event for a refused edit and draws on.
                    warnings.append("\(edit.name) refused: \(e)")
                    continue
                }
                switch edit {
                case let .setPaint(layer, name, value): transitions.paintChanged(layer: layer, name: name, to: value, in: before)
                case .setLight(let light): transitions.lightChanged(light, in: before)
                default: break
                }
            case .setZoom(let z): moveCamera { $0.zoom = z }
            case .setBearing(let b): moveCamera { $0.bearing = b }
            case .setPitch(let p): moveCamera { $0.pitch = p }
            case .moveCamera(let step): moveCamera { $0 = step.applied(to: $0) }
            case let .setCenter(lon, lat): moveCamera { $0.center = Coordinate(latitude: lat, longitude: lon) }
            case .setStyleJSON(let json):
                try snapshotter.setStyle(json: json, baseURL: baseURL, keepingCamera: true)
            case .setStyleURL(let url):
                let path = rewrite(url) ?? url
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw ConformanceIOError(message: "setStyle: cannot read \(path)")
                }
                try snapshotter.setStyle(json: String(decoding: data, as: UTF8.self), baseURL: baseURL, keepingCamera: true)
            case let .addImage(name, path, ratio, sdf):
                let file = path.hasPrefix("/") ? path : suiteDir + "/" + path
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw ConformanceIOError(message: "addImage: cannot read \(file)")
                }
                let image = try ImageDecoder().decode([UInt8](data))
                try snapshotter.addImage(name, StyleImage(image: image, pixelRatio: ratio, sdf: sdf))
            case .removeImage(let name):
                try snapshotter.removeImage(name)
            case .harnessNoOp: break
            case let .updateFakeCanvas(source, played, paused):
                guard let canvas = spec.fakeCanvas else { throw ConformanceIOError(message: "updateFakeCanvas without addFakeCanvas") }
                try snapshotter.playCanvasSource(source)
                snapshotter.setCanvas(canvas.id, image: try readImage(played, for: "updateFakeCanvas"))
                try snapshotter.pauseCanvasSource(source)
                snapshotter.setCanvas(canvas.id, image: try readImage(paused, for: "updateFakeCanvas"))
            case let .addCustomLayer(name, before):
                guard let layer = HarnessCustomLayers.layer(named: name) else { throw ConformanceIOError(message: "no custom layer \(name)") }
                try snapshotter.addCustomLayer(layer, id: name, before: before)
            case .unsupported(let name):
                // RenderCaseSpec lists these in `unsupported`, and such cases are never drawn.
                throw ConformanceIOError(message: "operation \(name) not supported")
            }
        }
        // GL JS's map clamps the pitch to its maxPitch (the style's and each camera move's).
        if let pitch = snapshotter.camera.pitch ?? snapshotter.getStyle()?["pitch"]?.numberValue, pitch > spec.maxPitch {
            moveCamera { $0.pitch = spec.maxPitch }
            warnings.append("pitch \(pitch) is past the map's maxPitch \(spec.maxPitch): drawn at \(spec.maxPitch), as GL JS clamps it")
        }
        // Transitions under way show their value at this moment.
        for (key, value) in transitions.current() {
            if let layer = key.layer {
                try snapshotter.setPaintProperty(layer, key.name, value)
            } else {
                try snapshotter.setLight(.object([key.name: value]))
            }
        }
        return (snapshotter, warnings)
    }

    /// `expected*.png` in a case folder, sorted.
    private func expectedImages(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("expected") && $0.hasSuffix(".png") }.sorted().map { folder + "/" + $0 }
    }
}
