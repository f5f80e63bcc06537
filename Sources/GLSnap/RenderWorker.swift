import Foundation
import GLSnapGL
import GLSnapRender
import CSystem

/// One GL context (inside its `MapRenderer`), used by one snapshot at a time on the thread that
/// asks for it: the context is made current on the calling thread for the job and released after
/// it. A snapshot is so laid out, drawn, read back and encoded on one thread, with no hand-off to
/// a render thread and back. Measured with `glsnap bench` (bright-v9, 512x512 @2x, 2 workers on
/// 2 cores): 1.7-1.8 → 1.97 cores busy and 80-88 → 96-98 snapshots/s against a thread per context,
/// whose wake-ups waited 1.6 ms on average for a core (perf sched latency).
///
/// The calling thread's own current GL context, if it has one on the same Mesa copy, is not
/// current after a snapshot.
final class RenderWorker: @unchecked Sendable {
    private let lock = NSLock()
    private var renderer: Result<MapRenderer, Error>?
    /// The thread that used the context last, so a thread keeps to one context when it can
    /// (read and written under the snapshotter's worker lock).
    var lastThread: pthread_t?
    let backend: Backend
    let rasterizer: SoftwareRasterizer

    init(backend: Backend, rasterizer: SoftwareRasterizer) {
        self.backend = backend
        self.rasterizer = rasterizer
    }

    deinit {
        // GL objects are deleted with their context current, then the context is destroyed.
        guard case .success(let r)? = renderer, (try? r.context.makeCurrent()) != nil else { return }
        renderer = nil
    }

    /// Runs `body` with the worker's renderer, its context current on the calling thread. The
    /// renderer is created on the first job; if that fails, every job gets the same error.
    /// A thread with a stack under `minimumStack` (LLVM compiles shaders on the drawing thread)
    /// hands the job to a thread of its own with a stack of `helperStack`.
    func run<T>(_ body: (MapRenderer) throws -> T) throws -> T {
        guard RenderWorker.currentStackSize() < RenderWorker.minimumStack else { return try runHere(body) }
        return try withoutActuallyEscaping(body) { body in
            var result: Result<T, Error>?
            let done = DispatchSemaphore(value: 0)
            let thread = Thread { [self] in
                result = Result { try runHere(body) }
                done.signal()
            }
            thread.stackSize = RenderWorker.helperStack
            thread.start()
            done.wait()
            return try result!.get()
        }
    }

    static let minimumStack = 4 << 20
    static let helperStack = 8 << 20

    /// The calling thread's stack size (the main thread's is its rlimit).
    static func currentStackSize() -> Int {
        var attr = pthread_attr_t()
        guard pthread_getattr_np(pthread_self(), &attr) == 0 else { return 0 }
        defer { pthread_attr_destroy(&attr) }
        var size = 0
        pthread_attr_getstacksize(&attr, &size)
        return size
    }

    private func runHere<T>(_ body: (MapRenderer) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        switch renderer {
        case nil:
            renderer = Result { try MapRenderer(backend: backend, rasterizer: rasterizer) }
        case .success(let r)?:
            try r.context.makeCurrent()
        case .failure?:
            break
        }
        switch renderer {
        case .success(let r)?:
            defer { r.context.releaseCurrent() }
            return try body(r)
        case .failure(let e)?:
            throw e
        case nil:
            throw GLSnapError.render("render worker has no renderer")
        }
    }
}
