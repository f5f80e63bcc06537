import Foundation
import GLSnapImage
import GLSnapLayout
import GLSnapRender

/// Options checked once, for one image: the one place that says what is wrong with a size,
/// ratio, limit or time limit.
struct CheckedOptions {
    let options: MapSnapshotOptions
    /// The image size in pixels.
    let width: Int, height: Int
    /// From `options.limits.snapshotTimeLimit`, started now.
    let deadline: RenderDeadline?

    /// `options` checked: the image size (`MapSnapshotOptions.pixelSize(streamed:)`, which also
    /// checks the piece size) and the time limit, which starts here.
    init(_ options: MapSnapshotOptions, streamed: Bool) throws {
        self.options = options
        (width, height) = try options.pixelSize(streamed: streamed)
        if let seconds = options.limits.snapshotTimeLimit {
            guard seconds.isFinite, seconds >= 0 else {
                throw GLSnapError.invalidOptions("time limit \(seconds) s must be a finite number of seconds, not negative")
            }
            deadline = RenderDeadline(seconds: seconds)
        } else {
            deadline = nil
        }
    }

    /// The grid `Snapshotter` draws the whole image in (see `PieceGrid`).
    var grid: PieceGrid {
        PieceGrid(width: width, height: height, pieceSide: options.limits.pieceSize, maxBandBytes: options.limits.maxBandBytes)
    }
}

/// One image being drawn piece by piece: its camera, its frame builder (labels are placed once,
/// for the whole image, with its first piece) and the time its pieces took.
struct ImageDrawing {
    let snapshotter: Snapshotter
    let style: LoadedStyle
    let checked: CheckedOptions
    let transform: Transform
    var builder: FrameBuilder
    var timings = SnapshotTimings()
    /// The globe the style's projection asks for at this zoom (nil: the flat map), and the flat
    /// map drawn under it (GlobeDrawing.swift).
    let globe: GlobeView?
    var globeTexture: GlobeTexture?
    /// For the flat texture under a globe, the globe's camera its frames size and turn by.
    var globeCamera: GlobeCamera?

    init(snapshotter: Snapshotter, style: LoadedStyle, camera: CameraOptions, checked: CheckedOptions) throws {
        self.snapshotter = snapshotter
        self.style = style
        self.checked = checked
        transform = try snapshotter.transform(camera, size: checked.options.size)
        builder = snapshotter.makeBuilder(style: style, options: checked.options, deadline: checked.deadline)
        builder.centerClampedToGround = camera.centerClampedToGround ?? true
        globe = ImageDrawing.globe(style: style, transform: transform)
    }

    /// Lays out `piece` (image pixels), draws it on a free worker and reads it back, straight
    /// RGBA, into `destination` (at least piece.width × piece.height × 4 bytes).
    mutating func drawPiece(_ piece: PixelRect, into destination: UnsafeMutableRawBufferPointer) throws {
        let start = DispatchTime.now().uptimeNanoseconds
        let loadBefore = builder.tileLoadSeconds, placementBefore = builder.placementSeconds
        var frame: Frame
        do {
            frame = try builder.frame(transform: transform, pixelRatio: checked.options.pixelRatio, width: checked.width,
                                      height: checked.height, piece: piece)
        } catch let e as DeadlinePassed {
            throw GLSnapError.timedOut(seconds: e.seconds)
        }
        frame.globeCamera = globeCamera
        let tileLoad = builder.tileLoadSeconds - loadBefore
        let placement = builder.placementSeconds - placementBefore
        timings.tileLoad += tileLoad
        timings.placement += placement
        timings.layout += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 - tileLoad - placement
        let (upload, draw, readback) = try snapshotter.drawOnWorker(frame, into: destination)
        timings.upload += upload
        timings.draw += draw
        timings.readback += readback
    }

    /// Draws the pieces of `grid` in order into `stitcher`, handing each band, once whole, to
    /// `band(bandIndex)` and reporting each piece to `progress(done, total)`.
    mutating func draw(_ grid: PieceGrid, into stitcher: Stitcher, progress: ((_ done: Int, _ total: Int) -> Void)? = nil,
                       band: (Int) throws -> Void = { _ in }) throws {
        if let globe { return try drawGlobe(globe, grid: grid, into: stitcher, progress: progress, band: band) }
        for b in 0..<grid.bands {
            for c in 0..<grid.columns {
                let piece = grid.piece(band: b, column: c)
                try drawPiece(piece, into: stitcher.destination(for: piece))
                stitcher.place(piece)
                progress?(b * grid.columns + c + 1, grid.count)
            }
            try band(b)
        }
    }

    /// The snapshot of what was drawn (its image left to the caller): the coordinate conversion,
    /// timings, the query index and the warnings. Throws the first resource failure under
    /// `SourceErrorPolicy.fail` (for sprites and glyphs met since `resourceMark`).
    func snapshot(image: RGBAImage, resourceMark: SymbolResources.Mark) throws -> Snapshot {
        let options = checked.options
        let resources = style.symbolResources.problems(since: resourceMark)
        if (options.resourceErrors ?? options.sourceErrors) == .fail, let first = resources.failures.first {
            throw GLSnapError.style(source: style.origin, message: first)
        }
        var snapshot = Snapshot(image: image, pixelRatio: options.pixelRatio, transform: transform)
        snapshot.globe = globe
        snapshot.globeFlat = globeTexture?.flat
        snapshot.timings = timings
        snapshot.queryIndex = SnapshotQueryIndex(style: style, transform: globeTexture?.flat ?? transform, covers: builder.fullCovers,
                                                 symbols: builder.placedSymbolsByLayer, states: builder.featureStates,
                                                 tiles: snapshotter.tileCache)
        snapshot.warnings = style.takeStyleWarnings()
            + style.sourceErrors.sorted { $0.key < $1.key }.map { "source \"\($0.key)\": \($0.value)" } + builder.warnings
            + resources.warnings + snapshotter.httpClient.warnings
        return snapshot
    }
}

extension Snapshotter {
    /// Draws `frame` on a free worker and reads it back into `destination`; returns the seconds
    /// of upload, draw calls and readback. Errors other than `GLSnapError` become `.render`.
    func drawOnWorker(_ frame: Frame, into destination: UnsafeMutableRawBufferPointer)
        throws -> (upload: Double, draw: Double, readback: Double) {
        do {
            return try withWorker { worker in
                try worker.run { renderer in
                    let t0 = DispatchTime.now().uptimeNanoseconds
                    let uploadBefore = renderer.context.uploadNanoseconds
                    try renderer.draw(frame)
                    let t1 = DispatchTime.now().uptimeNanoseconds
                    let upload = Double(renderer.context.uploadNanoseconds - uploadBefore) / 1e9
                    try renderer.readPixels(into: destination)
                    return (upload, Double(t1 - t0) / 1e9 - upload, Double(DispatchTime.now().uptimeNanoseconds - t1) / 1e9)
                }
            }
        } catch let e as GLSnapError {
            throw e
        } catch let e as DeadlinePassed {
            throw GLSnapError.timedOut(seconds: e.seconds)
        } catch {
            throw GLSnapError.rendering(error)
        }
    }

    /// The style to draw: `variant`'s, else the current one.
    func styleToDraw(_ variant: StyleVariant?) throws -> LoadedStyle {
        guard let style = variant?.loaded ?? loadedStyle else { throw Snapshotter.noStyle }
        return style
    }
}
