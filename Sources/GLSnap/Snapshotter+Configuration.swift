import GLSnapData
import GLSnapGL

extension Snapshotter {
    /// What a snapshotter is made with and keeps for its life: its GL contexts (backend, workers,
    /// rasterizer, the drawing thread) and its HTTP client. Given once, to `init`, and read-only
    /// afterwards (`Snapshotter.configuration`); what may change between snapshots is
    /// `MapSnapshotOptions`.
    public struct Configuration: Sendable {
        /// The GL backend: `.osmesa` (default) needs no display and no EGL.
        public var backend: Backend
        /// Render workers, each a thread with its own GL context; `snapshot` calls from several
        /// threads run on different workers at once (default 1; at least 1).
        public var workers: Int
        /// Mesa's software rasterizer: its threads and how many copies of Mesa the workers spread
        /// over (see `SoftwareRasterizer`). nil (default): `SoftwareRasterizer.automatic` for
        /// `workers` on this machine's cores, a copy per worker.
        public var rasterizer: SoftwareRasterizer?
        /// Draw on the thread that asks for the snapshot instead of handing the frame to the
        /// worker's render thread and waiting (default false). Faster when at most `workers`
        /// threads call `snapshot` (a fixed pool of your own, as `glsnap bench` has): no
        /// hand-offs, about 5% more snapshots per second on 2 cores. With many calling threads,
        /// leave it off: Mesa's memory would spread over every thread's malloc arena (see
        /// `RenderWorker`). A GL context of the caller's own on that thread is not current afterwards.
        public var drawOnCallingThread: Bool
        /// Fetches `http://` and `https://` styles, TileJSON, tiles, glyphs and sprites (to change
        /// timeouts, size limits, retries, the connection bound or the caches). nil (default):
        /// with `httpCachePath`, a client of the snapshotter's own with that disk cache, else
        /// `HTTPClient.shared`: one connection bound and one memory cache for the process, so
        /// that many snapshotters (a server's styles) fetching from one host stay within one
        /// bound and reuse each other's responses.
        public var httpClient: HTTPClient?
        /// An SQLite file that keeps HTTP(S) responses between runs (see
        /// `HTTPOptions.diskCachePath`); nil (default) keeps them in memory. Used when
        /// `httpClient` is nil. Problems with the file (a corrupt cache is started anew) are
        /// listed in `Snapshot.warnings`.
        public var httpCachePath: String?

        /// A configuration with the given values (defaults: OSMesa, one worker, the automatic
        /// rasterizer, render threads, the shared HTTP client).
        public init(backend: Backend = .osmesa, workers: Int = 1, rasterizer: SoftwareRasterizer? = nil,
                    drawOnCallingThread: Bool = false, httpClient: HTTPClient? = nil, httpCachePath: String? = nil) {
            self.backend = backend; self.workers = max(1, workers); self.rasterizer = rasterizer
            self.drawOnCallingThread = drawOnCallingThread; self.httpClient = httpClient; self.httpCachePath = httpCachePath
        }
    }
}
