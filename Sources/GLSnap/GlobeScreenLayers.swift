import Foundation
import GLSnapImage
import GLSnapLayout
import GLSnapRender
import GLSnapStyle

/// Which layers one frame builder draws on a globe drawn in passes, and for the screen pass the
/// globe its symbols are placed on and the flat camera whose tile cover they are laid out from.
struct GlobeFramePass {
    /// Ids of the layers drawn.
    var layers: Set<String>
    /// The globe (screen pass only): symbols placed with its projection, no terrain.
    var globe: GlobeView?
    /// The flat camera whose tiles the layers are read from (screen pass only).
    var coverTransform: Transform?

    func draws(_ layer: StyleLayer) -> Bool { layers.contains(layer.id) }
}

/// A globe style's layers in style order, cut into runs: surface runs (drawn into a flat
/// Mercator image the sphere samples) and screen runs (symbol layers, placed and drawn facing
/// the screen at their globe-projected anchors, as GL JS draws them). Order is kept by
/// compositing in turn: each surface run's sphere over what is below, each screen run drawn
/// over that, so a fill after a symbol layer still covers it.
struct GlobeLayerRuns {
    struct Run {
        var onScreen: Bool
        var layers: Set<String>
    }
    /// Surface runs drawn apart at most (each holds a flat image of up to 64 MiB while the
    /// pieces are drawn): past this, the screen layers between the last runs are drawn on the
    /// surface, flat, as before.
    static let maxSurfaceRuns = 4
    let runs: [Run]

    /// The runs of `layers` visible at `zoom`, or nil when none is drawn on the screen.
    init?(_ layers: [StyleLayer], zoom: Double) {
        var runs: [Run] = []
        for layer in layers where layer.isVisible(atZoom: zoom) {
            let onScreen = GlobeLayerRuns.isOnScreen(layer, zoom: zoom)
            if runs.last?.onScreen == onScreen { runs[runs.count - 1].layers.insert(layer.id) } else { runs.append(Run(onScreen: onScreen, layers: [layer.id])) }
        }
        guard runs.contains(where: \.onScreen) else { return nil }
        while runs.filter({ !$0.onScreen }).count > GlobeLayerRuns.maxSurfaceRuns,
              let i = runs.indices.last(where: { $0 > 0 && $0 + 1 < runs.count && runs[$0].onScreen }) {
            let merged = Run(onScreen: false, layers: runs[i - 1].layers.union(runs[i].layers).union(runs[i + 1].layers))
            runs.replaceSubrange((i - 1)...(i + 1), with: [merged])
        }
        self.runs = runs
    }

    /// Layers GL JS draws facing the screen on the globe: symbols, and circles aligned to the
    /// viewport (circle-pitch-alignment viewport, the default).
    static func isOnScreen(_ layer: StyleLayer, zoom: Double) -> Bool {
        if let circle = layer.circle { return circle.pitchAlignment.evaluate(EvaluationContext(zoom: zoom)) == .viewport }
        return layer.type == .symbol
    }

    /// Every layer of the screen runs.
    var screenLayers: Set<String> { runs.filter(\.onScreen).reduce(into: []) { $0.formUnion($1.layers) } }
}

extension ImageDrawing {
    /// The globe drawn in runs (see `GlobeLayerRuns`): a flat image per surface run, symbols placed
    /// once for the whole image on the globe's screen, each piece composited run by run, then the
    /// atmosphere over all (GL JS draws it after the layers).
    mutating func drawGlobe(_ globe: GlobeView, runs: GlobeLayerRuns, grid: PieceGrid, into stitcher: Stitcher,
                            progress: ((_ done: Int, _ total: Int) -> Void)?, band: (Int) throws -> Void) throws {
        var textures: [GlobeTexture?] = []
        for run in runs.runs {
            textures.append(run.onScreen ? nil : try drawGlobeTexture(globe, layers: run.layers))
        }
        let first = try textures.compactMap({ $0 }).first ?? drawGlobeTexture(globe, layers: [])
        globeTexture = first
        var screen = snapshotter.makeBuilder(style: style, options: checked.options, deadline: checked.deadline)
        screen.globePass = GlobeFramePass(layers: runs.screenLayers, globe: globe, coverTransform: GlobeLayerRuns.coverTransform(globe, first))
        let atmosphere = globeAtmosphere(globe)
        var layer = [UInt8]()
        for b in 0..<grid.bands {
            for c in 0..<grid.columns {
                let piece = grid.piece(band: b, column: c)
                let out = stitcher.destination(for: piece)
                let bytes = piece.width * piece.height * 4
                out.baseAddress.map { memset($0, 0, bytes) }
                if layer.count < bytes { layer = [UInt8](repeating: 0, count: bytes) }
                var frame: Frame?
                for (i, run) in runs.runs.enumerated() {
                    try layer.withUnsafeMutableBytes { tmp in
                        let tmp = UnsafeMutableRawBufferPointer(rebasing: tmp[0..<bytes])
                        if let texture = textures[i] {
                            drawGlobePiece(piece, globe: globe, texture: texture, into: tmp)
                        } else {
                            if frame == nil { frame = try screenFrame(&screen, piece: piece) }
                            guard var f = frame else { return }
                            f.layers = f.layers.filter { run.layers.contains($0.layer.id) }
                            guard f.layers.contains(where: { !($0.symbols?.isEmpty ?? true) || !$0.tiles.isEmpty }) else { return }
                            let (upload, draw, readback) = try snapshotter.drawOnWorker(f, into: tmp)
                            timings.upload += upload; timings.draw += draw; timings.readback += readback
                        }
                        GlobeLayerRuns.composite(UnsafeRawBufferPointer(tmp), over: out, bytes: bytes)
                    }
                }
                if let atmosphere { drawAtmosphere(atmosphere, piece: piece, into: out) }
                stitcher.place(piece)
                progress?(b * grid.columns + c + 1, grid.count)
            }
            try band(b)
        }
        builder.warnings += screen.warnings
        // The debug view draws the boxes where the labels are: on the globe's screen.
        builder.collisionDebugShapes += screen.collisionDebugShapes
        // Queries find these labels by their boxes on the screen (Snapshot+Query.swift).
        builder.placedSymbolsByLayer.merge(screen.placedSymbolsByLayer) { $1 }
    }

    /// The screen pass's frame of `piece`: symbols placed on the globe (once, with the first
    /// piece), no sky (the globe's space is clear).
    mutating func screenFrame(_ screen: inout FrameBuilder, piece: PixelRect) throws -> Frame {
        let loadBefore = screen.tileLoadSeconds, placementBefore = screen.placementSeconds
        var frame: Frame
        do {
            frame = try screen.frame(transform: transform, pixelRatio: checked.options.pixelRatio, width: checked.width,
                                     height: checked.height, piece: piece)
        } catch let e as DeadlinePassed {
            throw GLSnapError.timedOut(seconds: e.seconds)
        }
        timings.tileLoad += screen.tileLoadSeconds - loadBefore
        timings.placement += screen.placementSeconds - placementBefore
        frame.sky = nil
        frame.globe = screen.globePass?.globe
        return frame
    }

    /// Lays the atmosphere over `piece` (straight RGBA at `out`).
    func drawAtmosphere(_ atmosphere: GlobeAtmosphere, piece: PixelRect, into destination: UnsafeMutableRawBufferPointer) {
        let ratio = checked.options.pixelRatio
        let out = destination.bindMemory(to: UInt8.self)
        for row in 0..<piece.height {
            let y = (Double(piece.y + row) + 0.5) / ratio
            for col in 0..<piece.width {
                atmosphere.composite(at: ((Double(piece.x + col) + 0.5) / ratio, y), out, (row * piece.width + col) * 4,
                                     excess: checked.options.excessLight)
            }
        }
    }
}

extension GlobeLayerRuns {
    /// The flat camera whose tile cover the screen layers are laid out from: the region of the
    /// surface image at the globe camera's zoom (tiles of the zoom GL JS shows there), north up.
    static func coverTransform(_ globe: GlobeView, _ texture: GlobeTexture) -> Transform {
        let k = exp2(globe.flat.zoom - texture.flat.zoom)
        return Transform(width: max(texture.flat.width * k, 1), height: max(texture.flat.height * k, 1),
                         center: texture.flat.center, zoom: globe.flat.zoom)
    }

    /// `source` (straight RGBA) laid over `destination` (straight RGBA), `bytes` of each.
    static func composite(_ source: UnsafeRawBufferPointer, over destination: UnsafeMutableRawBufferPointer, bytes: Int) {
        let s = source.bindMemory(to: UInt8.self), d = destination.bindMemory(to: UInt8.self)
        for o in stride(from: 0, to: bytes, by: 4) {
            let sa = s[o + 3]
            if sa == 0 { continue }
            if sa == 255 || d[o + 3] == 0 {
                d[o] = s[o]; d[o + 1] = s[o + 1]; d[o + 2] = s[o + 2]; d[o + 3] = sa
                continue
            }
            let a = Double(sa) / 255, keep = Double(d[o + 3]) / 255 * (1 - a)
            let alpha = a + keep
            for k in 0..<3 {
                let v = (Double(s[o + k]) * a + Double(d[o + k]) * keep) / alpha
                d[o + k] = UInt8(min(max(v.rounded(), 0), 255))
            }
            d[o + 3] = UInt8(min(max((alpha * 255).rounded(), 0), 255))
        }
    }
}
