import Foundation
import GLSnapGL
import GLSnapRender

/// A thread that owns one GL context (inside its `MapRenderer`) and runs render jobs on it, one
/// at a time. GL calls for that context happen on this thread only.
final class RenderWorker: @unchecked Sendable {
    private var jobs: [() -> Void] = []
    private let condition = NSCondition()
    private var thread: Thread?
    private var renderer: Result<MapRenderer, Error>?
    let backend: Backend
    let rasterizer: SoftwareRasterizer

    init(backend: Backend, rasterizer: SoftwareRasterizer) {
        self.backend = backend
        self.rasterizer = rasterizer
        let t = Thread { [self] in self.loop() }
        t.name = "glsnap-render-\(backend.rawValue)"
        t.stackSize = 8 << 20
        thread = t
        t.start()
    }

    private var stopping = false

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty && stopping {
                condition.unlock()
                // The GL context is destroyed on the thread it is current on.
                renderer = nil
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }

    /// Ends the thread once queued jobs are done, releasing the GL context there.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` with the worker's renderer on the worker thread and waits for its result.
    /// The renderer (and its GL context) is created on the first job; if that fails, every job
    /// gets the same error.
    func run<T>(_ body: @escaping (MapRenderer) throws -> T) throws -> T {
        var result: Result<T, Error>?
        let done = DispatchSemaphore(value: 0)
        condition.lock()
        jobs.append { [self] in
            if renderer == nil { renderer = Result { try MapRenderer(backend: backend, rasterizer: rasterizer) } }
            switch renderer {
            case .success(let r)?: result = Result { try body(r) }
            case .failure(let e)?: result = .failure(e)
            case nil: result = nil
            }
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        switch result {
        case .success(let v)?: return v
        case .failure(let e)?: throw e
        case nil: throw GLSnapError.render("render worker returned no result")
        }
    }
}
