import Foundation
import GLSnapGL
import GLSnapRender
import CSystem

/// One GL context (inside its `MapRenderer`), used by one snapshot at a time. The context is made
/// current for a job and released after it, on one of two threads:
///
/// - the calling thread, with `Snapshotter.Configuration.drawOnCallingThread`: a snapshot is laid out,
///   drawn, read back and encoded on one thread, with no hand-off. Measured with `glsnap bench`
///   (bright-v9, 512x512 @2x, 2 workers on 2 cores, 120 cameras, 4 runs): 86 snapshots/s against
///   81 with render threads. Against render threads that callers swapped between (before
///   `Snapshotter.withWorker` kept a thread to its worker) it was 96-101 against 80-88, their
///   wake-ups waiting 1.6 ms on average for a core (perf sched latency);
/// - otherwise the worker's own thread (started on first use, 8 MiB of stack): Mesa's allocations
///   stay in that thread's malloc arena. With many calling threads, drawing on each of them spread
///   those over every thread's arena: `glsnap serve` with a thread per connection grew to 1.4 GB
///   under `tools/wrk-soak.lua` at 32 connections, against 0.4 GB with render threads.
///
/// A calling thread with a stack under `minimumStack` always hands off: LLVM compiles shaders on
/// the drawing thread. After a job on the calling thread, no GL context is current there.
final class RenderWorker: @unchecked Sendable {
    private let lock = NSLock()
    private var renderer: Result<MapRenderer, Error>?
    /// The thread that used the context last, so a thread keeps to one context when it can
    /// (read and written under the snapshotter's worker lock).
    var lastThread: pthread_t?
    let backend: Backend
    let rasterizer: SoftwareRasterizer
    let drawOnCallingThread: Bool

    // The worker's own thread, for hand-offs (a pthread, so that `shutdown` can join it).
    private var jobs: [() -> Void] = []
    private let condition = NSCondition()
    private var thread: pthread_t?
    private var stopping = false

    static let minimumStack = 4 << 20
    static let threadStack = 8 << 20

    init(backend: Backend, rasterizer: SoftwareRasterizer, drawOnCallingThread: Bool) {
        self.backend = backend
        self.rasterizer = rasterizer
        self.drawOnCallingThread = drawOnCallingThread
    }

    deinit { destroyRenderer() }

    /// Ends the worker in order: queued jobs finish, the renderer's GL objects and context are
    /// destroyed, and the worker's thread (if it has one) has exited when this returns. Later jobs
    /// throw. A process must not exit while a worker is still tearing down: `exit` runs the
    /// libraries' destructors (`_dl_fini`) and unmaps Mesa under a thread still inside
    /// `OSMesaMakeCurrent` or its thread-local destructors, a segfault in about 1 of 100 exits
    /// with two renders at once (more on a busy machine).
    func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        let running = thread
        thread = nil
        condition.unlock()
        if let running {
            // A job that drops the last reference to its snapshotter runs this on the worker's own
            // thread, which cannot join itself; it exits once the job returns.
            if pthread_equal(running, pthread_self()) != 0 {
                pthread_detach(running)
            } else {
                pthread_join(running, nil)
            }
        }
        // In calling-thread mode the renderer lives outside the thread; this waits for a job in flight.
        destroyRenderer()
    }

    /// Deletes the GL objects with their context current, then the context.
    private func destroyRenderer() {
        lock.lock()
        defer { lock.unlock() }
        if case .success(let r)? = renderer {
            _ = try? r.context.makeCurrent()
        }
        renderer = nil
    }

    /// Runs `body` with the worker's renderer, its context current. The renderer is created on
    /// the first job; if that fails, every job gets the same error.
    func run<T>(_ body: @escaping (MapRenderer) throws -> T) throws -> T {
        if drawOnCallingThread, RenderWorker.callingThreadStackSize() >= RenderWorker.minimumStack {
            return try runHere(body)
        }
        var result: Result<T, Error> = .failure(GLSnapError.render("the render job did not run"))
        let done = DispatchSemaphore(value: 0)
        try enqueue { [self] in
            result = Result { try runHere(body) }
            done.signal()
        }
        done.wait()
        return try result.get()
    }

    /// The calling thread's stack size, looked up once per thread (for the main thread glibc reads
    /// /proc/self/maps, too slow to repeat for every snapshot).
    static func callingThreadStackSize() -> Int {
        let key = "glsnap.stackSize"
        let memo = Thread.current.threadDictionary
        if let size = memo[key] as? Int { return size }
        let size = currentStackSize()
        memo[key] = size
        return size
    }

    /// The calling thread's stack size (the main thread's is its rlimit).
    private static func currentStackSize() -> Int {
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
        if isStopping { throw GLSnapError.render("the snapshotter was closed") }
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

    private var isStopping: Bool {
        condition.lock(); defer { condition.unlock() }
        return stopping
    }

    /// Queues `job` for the worker's thread, starting the thread on first use.
    private func enqueue(_ job: @escaping () -> Void) throws {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { throw GLSnapError.render("the snapshotter was closed") }
        if thread == nil {
            guard let started = startThread() else { throw GLSnapError.render("pthread_create failed for a render thread") }
            thread = started
        }
        jobs.append(job)
        condition.signal()
    }

    /// Starts the worker's thread (`threadStack` of stack); it holds the worker until `shutdown`,
    /// which the snapshotter calls on close or deinit.
    private func startThread() -> pthread_t? {
        var attr = pthread_attr_t()
        pthread_attr_init(&attr)
        defer { pthread_attr_destroy(&attr) }
        pthread_attr_setstacksize(&attr, RenderWorker.threadStack)
        let retained = Unmanaged.passRetained(self)
        var handle = pthread_t()
        let started = pthread_create(&handle, &attr, { context in
            let worker = Unmanaged<RenderWorker>.fromOpaque(context!).takeRetainedValue()
            worker.loop()
            return nil
        }, retained.toOpaque())
        guard started == 0 else {
            retained.release()
            return nil
        }
        // Thread names are at most 15 bytes.
        _ = pthread_setname_np(handle, String("glsnap-\(backend.rawValue)".prefix(15)))
        return handle
    }

    /// Runs jobs until `shutdown`; the renderer is destroyed here, on the thread that drew with it,
    /// before the thread exits.
    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                destroyRenderer()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
