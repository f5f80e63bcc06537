import Foundation
import GLSnapImage
import GLSnapStyle

/// Canvas sources (`{"type": "canvas", "canvas": ID, "coordinates": […], "animate": …}`), as GL
/// JS's CanvasSource with the canvas's pixels given by the caller: `setCanvas(ID, image:)` is what
/// the HTML canvas of that id holds. A playing source (`animate` true, the default, or after
/// `playCanvasSource`) shows the canvas as it is at each snapshot; a paused one (`animate` false,
/// or after `pauseCanvasSource`) keeps what it showed: from its first snapshot, or from the moment
/// it was paused. A source whose canvas was never set draws nothing, with a warning.
struct CanvasState {
    /// Each canvas's pixels and a number that changes with each `setCanvas`.
    var canvases: [String: (image: RGBAImage, version: Int)] = [:]
    /// Per canvas source: playing or not (nil: as its `animate` says), and what it shows now.
    var playing: [String: Bool] = [:]
    var shown: [String: Shown] = [:]
    var nextVersion = 0

    struct Shown {
        var canvas: String
        var version: Int
        var coordinates: JSON
        var source: ImageSource
    }
}

extension Snapshotter {
    /// Sets what the canvas `id` holds (the element a canvas source's `canvas` names).
    public func setCanvas(_ id: String, image: RGBAImage) {
        withCanvasState { state in
            state.nextVersion += 1
            state.canvases[id] = (image, state.nextVersion)
        }
    }

    /// GL JS's `CanvasSource.play()`: the source shows its canvas as it is at each snapshot.
    public func playCanvasSource(_ source: String) throws {
        _ = try canvasSourceDefinition(source)
        withCanvasState { state in state.playing[source] = true }
    }

    /// GL JS's `CanvasSource.pause()`: the source keeps showing what its canvas holds now.
    public func pauseCanvasSource(_ source: String) throws {
        let definition = try canvasSourceDefinition(source)
        withCanvasState { state in
            state.playing[source] = false
            // A playing source shows the canvas as it is; paused, it keeps that.
            _ = Snapshotter.show(source, definition, in: &state, read: true)
        }
    }

    private func canvasSourceDefinition(_ source: String) throws -> JSON {
        guard let definition = loadedStyle?.style.sources[source], definition["type"]?.stringValue == "canvas" else {
            throw StyleEditError(notFound: [StyleProblem(path: "sources.\(source)", message: "there is no canvas source \"\(source)\"")])
        }
        return definition
    }

    /// The pictures the canvas sources of `style` show in this snapshot, by source name, and a
    /// warning for each that has no canvas to show.
    func canvasSources(_ style: LoadedStyle) -> (sources: [String: ImageSource], warnings: [String]) {
        let canvasSources = style.style.sources.filter { $0.value["type"]?.stringValue == "canvas" }
        guard !canvasSources.isEmpty else { return ([:], []) }
        return withCanvasState { state in
            var sources: [String: ImageSource] = [:], warnings: [String] = []
            for (name, definition) in canvasSources.sorted(by: { $0.key < $1.key }) {
                let playing = state.playing[name] ?? (definition["animate"]?.boolValue ?? true)
                switch Snapshotter.show(name, definition, in: &state, read: playing) {
                case .success(let source): sources[name] = source
                case .failure(let message): warnings.append("source \"\(name)\": \(message)")
                }
            }
            return (sources, warnings)
        }
    }

    /// What the canvas source `name` shows: its canvas read again when `read` (or when it shows
    /// nothing yet), else what it showed.
    private static func show(_ name: String, _ definition: JSON, in state: inout CanvasState, read: Bool) -> Result<ImageSource, CanvasMessage> {
        guard let canvas = definition["canvas"]?.stringValue else { return .failure(CanvasMessage("'canvas' is missing or not a string")) }
        let coordinates = definition["coordinates"] ?? .null
        if let shown = state.shown[name], shown.canvas == canvas, shown.coordinates == coordinates,
           !read || state.canvases[canvas]?.version == shown.version {
            return .success(shown.source)
        }
        guard let (image, version) = state.canvases[canvas] else {
            return .failure(CanvasMessage("no canvas \"\(canvas)\" was set (Snapshotter.setCanvas)"))
        }
        do {
            let source = try ImageSource(coordinates: coordinates, image: image, name: "canvas source \"\(name)\"")
            state.shown[name] = CanvasState.Shown(canvas: canvas, version: version, coordinates: coordinates, source: source)
            return .success(source)
        } catch {
            return .failure(CanvasMessage("\(error)"))
        }
    }

    struct CanvasMessage: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
