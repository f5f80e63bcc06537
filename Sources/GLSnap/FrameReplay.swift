import Foundation
import GLSnapGL
import GLSnapImage
import GLSnapRender

/// What one frame's stages cost apart, for the limit estimate (`glsnap bench --replay`, README
/// "The limit"): the frame of one camera is built once, then drawn again from the same uploaded
/// buffers, so that nothing but the draw calls and llvmpipe's work is timed. Median seconds of the
/// repetitions, in CPU time of the drawing thread (llvmpipe with `LP_NUM_THREADS=0` rasterizes on
/// it), so that other processes on a busy machine do not count.
public struct FrameReplayTimings: Sendable {
    /// How many times the frame was drawn again (the first draw, which uploads, is not counted).
    public var repetitions = 0
    /// Building the frame again with every cache warm (tile cover, cached tile layers and symbol
    /// layouts, then placement).
    public var build = 0.0
    /// The draw calls with `GL_RASTERIZER_DISCARD`: glsnap's painter, Mesa's state validation and
    /// vertex shading, no triangle setup, binning or fragments.
    public var issueDiscarded = 0.0
    /// The draw calls as drawn: the above plus llvmpipe's triangle setup and binning (and any
    /// rasterization Mesa does before the end, at a render-target switch or a full scene).
    public var issue = 0.0
    /// glFinish after the draw calls: llvmpipe rasterizing and shading the binned triangles
    /// (with `LP_NUM_THREADS=0`, on the calling thread).
    public var rasterize = 0.0
    /// glReadPixels and the conversion to straight alpha.
    public var readback = 0.0
    /// The image drawn (the same pixels a snapshot of the camera has), for timing the encoder alone.
    public var image = RGBAImage(width: 1, height: 1)
    /// CPU seconds the calling thread has run (the clock of these timings).
    public static func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// With `perLayer`: each layer of the frame drawn alone (over a clear framebuffer), in draw order.
    public var layers: [Layer] = []
    /// With `perLayer`: one set of the tiles' clipping masks (clearing the stencil buffer and a
    /// quad per tile), issue and rasterize seconds; the whole frame draws them once per source run.
    public var masks: (issue: Double, rasterize: Double) = (0, 0)

    /// One layer drawn alone: its draw calls and glFinish, less those of the same layer with
    /// nothing in its tiles (median seconds), and the share of the image's pixels it leaves not transparent (what its
    /// fragments cover at least once; its overdraw of the layers below).
    public struct Layer: Sendable {
        /// The style layer's id.
        public var id: String
        /// Its type as the style names it (`line`).
        public var type: String
        /// Its draw calls' seconds.
        public var issue: Double
        /// Its glFinish's seconds (llvmpipe rasterizing and shading its triangles).
        public var rasterize: Double
        /// The share of the image's pixels it leaves not transparent, 0...1.
        public var coverage: Double
    }
}

extension Snapshotter {
    /// Draws the frame of `camera` `repetitions` times from the same buffers and times each stage
    /// apart (see `FrameReplayTimings`). The image must fit one piece (`Limits.pieceSize`).
    public func replayFrame(camera: CameraOptions, repetitions: Int, perLayer: Bool = false) throws -> FrameReplayTimings {
        let options = self.options
        let style = try styleToDraw(nil)
        let (width, height) = try options.pixelSize(streamed: true)
        guard width <= options.limits.pieceSize, height <= options.limits.pieceSize else {
            throw GLSnapError.invalidOptions("a replayed frame must fit one piece (\(options.limits.pieceSize) pixels a side)")
        }
        let transform = try transform(camera, size: options.size)
        func seconds(_ body: () throws -> Void) rethrows -> Double {
            let t0 = FrameReplayTimings.threadCPUSeconds()
            try body()
            return FrameReplayTimings.threadCPUSeconds() - t0
        }
        var builds: [Double] = []
        var frame: Frame?
        for _ in 0...repetitions {
            var builder = makeBuilder(style: style, options: options, deadline: nil)
            let t = try seconds { frame = try builder.frame(transform: transform, pixelRatio: options.pixelRatio, width: width, height: height) }
            builds.append(t)
        }
        guard let frame else { throw GLSnapError.render("no frame was built") }
        var result = FrameReplayTimings()
        result.repetitions = repetitions
        result.build = median(Array(builds.dropFirst()))
        var image = RGBAImage(width: width, height: height)
        var discarded: [Double] = [], issued: [Double] = [], rasterized: [Double] = [], read: [Double] = []
        try withWorker { worker in
            try worker.run { renderer in
                let context = renderer.context
                // The first draw uploads the buffers and textures; it is not counted.
                try renderer.draw(frame)
                context.finish()
                for _ in 0..<repetitions {
                    context.setRasterizerDiscard(true)
                    discarded.append(try seconds { try renderer.draw(frame); context.finish() })
                    context.setRasterizerDiscard(false)
                    issued.append(try seconds { try renderer.draw(frame) })
                    rasterized.append(seconds { context.finish() })
                    read.append(try seconds { try image.pixels.withUnsafeMutableBytes { try renderer.readPixels(into: $0) } })
                }
                guard perLayer else { return }
                func time(_ f: Frame) throws -> (issue: Double, rasterize: Double) {
                    try renderer.draw(f)
                    context.finish()
                    var i: [Double] = [], r: [Double] = []
                    for _ in 0..<repetitions {
                        i.append(try seconds { try renderer.draw(f) })
                        r.append(seconds { context.finish() })
                    }
                    return (median(i), median(r))
                }
                var alone = RGBAImage(width: width, height: height)
                for item in frame.layers {
                    var one = frame
                    one.layers = [item]
                    let t = try time(one)
                    try alone.pixels.withUnsafeMutableBytes { try renderer.readPixels(into: $0) }
                    // Less the same layer with nothing in its tiles: the clear and the tiles'
                    // clipping masks, which the whole frame draws once per source run.
                    var bare = item
                    bare.tiles = item.tiles.map { FrameTile(tile: $0.tile, geometry: nil) }
                    bare.symbols = nil
                    one.layers = [bare]
                    let base = try time(one)
                    result.layers.append(.init(id: item.layer.id, type: item.layer.type.rawValue, issue: max(0, t.issue - base.issue),
                                               rasterize: max(0, t.rasterize - base.rasterize), coverage: coverage(alone)))
                }
                var empty = frame
                empty.layers = []
                let clear = try time(empty)
                if let first = frame.layers.first(where: { $0.layer.type == .fill || $0.layer.type == .line }) {
                    var bare = first
                    bare.tiles = first.tiles.map { FrameTile(tile: $0.tile, geometry: nil) }
                    var masks = frame
                    masks.layers = [bare]
                    let m = try time(masks)
                    result.masks = (max(0, m.issue - clear.issue), max(0, m.rasterize - clear.rasterize))
                }
            }
        }
        result.issueDiscarded = median(discarded)
        result.issue = median(issued)
        result.rasterize = median(rasterized)
        result.readback = median(read)
        result.image = image
        return result
    }
}

/// The share of `image`'s pixels whose alpha is not 0.
private func coverage(_ image: RGBAImage) -> Double {
    var covered = 0
    image.pixels.withUnsafeBytes { b in
        for i in stride(from: 3, to: b.count, by: 4) where b[i] != 0 { covered += 1 }
    }
    return Double(covered) / Double(max(1, image.width * image.height))
}

/// The median of `values` (0 for none).
private func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}
