internal import CMesa
import Foundation

/// How Mesa's software rasterizer (llvmpipe, behind OSMesa and surfaceless EGL) is set up for
/// the contexts of this process.
public struct SoftwareRasterizer: Sendable, Equatable {
    /// llvmpipe's rasterizer threads per Mesa screen (`LP_NUM_THREADS`); 0 rasterizes on the
    /// rendering thread itself. Applied once, before the process's first software context, and
    /// only when `LP_NUM_THREADS` is not set in the environment already.
    public var threads: Int
    /// Copies of Mesa the OSMesa contexts may spread over (at most `OSMesaCopies.maxCopies`); a
    /// context takes a copy no context uses while fewer than this many are loaded, so contexts
    /// rasterize at the same time instead of taking turns. 1: all share one.
    public var copies: Int

    public init(threads: Int, copies: Int = OSMesaCopies.maxCopies) {
        self.threads = max(0, threads); self.copies = max(1, copies)
    }

    /// For `workers` contexts sharing `cores` cores: a copy of Mesa per worker, and rasterizer
    /// threads the cores divided among the workers, or 0 when that leaves one or none (a lone
    /// rasterizer thread only adds hand-offs). Measured with `glsnap bench` (bright-v9, 512x512
    /// @2x, 2 workers on 2 cores, a copy each, 120 cameras, 3 runs): 0 threads 96-99 snapshots/s,
    /// Mesa's default of a thread per core 93-97.
    public static func automatic(workers: Int, cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> SoftwareRasterizer {
        let share = cores / max(1, workers)
        return SoftwareRasterizer(threads: share >= 2 ? share : 0, copies: workers)
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var applied = false

    /// Sets `LP_NUM_THREADS` for the first software context of the process (Mesa reads it when
    /// it creates a screen; copies loaded later read the environment as it is then).
    ///
    /// This runs before the first copy of Mesa is loaded, and nothing in glsnap changes the
    /// environment after it. (A program that does, while other threads draw, races their getenv
    /// as in any threaded program; between snapshots it is safe, see `Copy.prepareThread`.)
    func applyOnce() {
        SoftwareRasterizer.lock.lock()
        defer { SoftwareRasterizer.lock.unlock() }
        guard !SoftwareRasterizer.applied else { return }
        SoftwareRasterizer.applied = true
        if getenv("LP_NUM_THREADS") == nil { setenv("LP_NUM_THREADS", String(threads), 1) }
    }
}

/// The OSMesa library, loaded up to `maxCopies` times, so that render workers do not take turns.
///
/// A load of Mesa has one llvmpipe screen, and that screen rasterizes one context's frame at a
/// time (Mesa holds a lock around its rasterizer), so two workers on one copy wait for each
/// other. Each further copy is loaded with dlmopen into a link-map namespace of its own, with its
/// own screen and rasterizer. Measured (bright-v9, 512x512 @2x, 2 workers on 2 cores, 0
/// rasterizer threads, 120 cameras, 3 runs): one shared copy kept 1.5 cores busy at 71 snapshots/s,
/// a copy each 1.97 at 96-99, for about 40 MiB more resident memory per copy (mostly LLVM's
/// pages, counted once per mapping).
///
/// glibc reserves static TLS for four namespaces by default (the `glibc.rtld.nns` tunable), so
/// at most four copies; when a copy cannot be loaded, contexts share the copies there are.
///
/// `GLSNAP_MESA_COPIES=N` in the environment caps the copies of the whole process at N (1-4),
/// whatever `SoftwareRasterizer.copies` asks; tools/sanitize.sh sets 1, because a copy loaded
/// with dlmopen has its own C library, whose malloc the sanitizers do not intercept, and memory
/// passed between the namespaces then aborts the process (`munmap_chunk(): invalid pointer`).
public final class OSMesaCopies: @unchecked Sendable {
    static let shared = OSMesaCopies()
    public static let maxCopies = 4
    static let environmentKey = "GLSNAP_MESA_COPIES"

    /// The cap `GLSNAP_MESA_COPIES` sets, read when a context is made; nil when unset or not 1-4.
    static var environmentLimit: Int? { cap(getenv(environmentKey).map { String(cString: $0) }) }

    /// The cap a value of `GLSNAP_MESA_COPIES` sets: nil when absent or not 1-4.
    static func cap(_ raw: String?) -> Int? {
        guard let raw, let n = Int(raw), (1...maxCopies).contains(n) else { return nil }
        return n
    }
    static let names = ["libOSMesa.so.8", "libOSMesa.so"]
    static let package = "libosmesa6"

    final class Copy {
        let library: DynamicLibrary
        var contexts = 0
        /// The C library of the copy's namespace sets up its per-thread ctype tables only for the
        /// thread that loaded it; any other thread must call its `__ctype_init` before running
        /// Mesa code of the copy (LLVM's pass parser calls isalpha and the like). Nil for the
        /// copy in the main namespace.
        private let ctypeInit: (@convention(c) () -> Void)?
        /// The `environ` of the copy's C library. It starts as the main library's array at load
        /// time, and a setenv in the main namespace that grows the environment frees that array;
        /// so before each use it is pointed at `isolatedEnvironment`, an array of glsnap's own.
        /// Nil for the copy in the main namespace.
        private let environment: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?

        /// What a copy in a namespace of its own reads for its environment: the process's as it
        /// was when the first such copy was loaded, with `LP_NUM_THREADS=0` and Mesa's shader disk
        /// cache off, so that the copy starts no threads. A thread started by a copy's C library
        /// may take a stack the main library's threads left in glibc's stack cache (shared by all
        /// namespaces since 2.34) and free its thread-local blocks with the copy's allocator,
        /// which did not allocate them: under ThreadSanitizer that faulted in 4 of 7 runs of
        /// ContextTests after ConcurrentSnapshotTests, and in plain builds it corrupted the heap
        /// (a CI run crashed reading a chunk header as an environment entry). Mesa's disk cache
        /// thread was the one thread a copy started (with 0 rasterizer threads); the main copy
        /// keeps both. Built once, under `OSMesaCopies`' lock, and never freed.
        nonisolated(unsafe) private static var isolatedEnvironment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

        /// The entries of `isolatedEnvironment` (for tests).
        static func isolatedEntries(from current: [String]) -> [String] {
            let replaced = ["LP_NUM_THREADS", "MESA_SHADER_CACHE_DISABLE", "MESA_GLSL_CACHE_DISABLE"]
            let kept = current.filter { entry in !replaced.contains { entry.hasPrefix($0 + "=") } }
            return kept + ["LP_NUM_THREADS=0", "MESA_SHADER_CACHE_DISABLE=true", "MESA_GLSL_CACHE_DISABLE=true"]
        }

        private static func makeIsolatedEnvironment() -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
            if let made = isolatedEnvironment { return made }
            var current: [String] = []
            var entry = environ
            while let e = entry.pointee { current.append(String(cString: e)); entry = entry.successor() }
            let entries = isolatedEntries(from: current)
            let array = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: entries.count + 1)
            for (i, e) in entries.enumerated() { array[i] = strdup(e) }
            array[entries.count] = nil
            isolatedEnvironment = array
            return array
        }

        init(library: DynamicLibrary, isolated: Bool) {
            var initializer: (@convention(c) () -> Void)?
            var lookUp: (@convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?)?
            var copyEnvironment: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
            var namespace = 0
            let diLMID: Int32 = 1 // RTLD_DI_LMID
            if isolated, dlinfo(library.handle, diLMID, &namespace) == 0,
               let libc = dlmopen(namespace, "libc.so.6", RTLD_NOW | RTLD_NOLOAD) {
                if let f = dlsym(libc, "__ctype_init") {
                    initializer = unsafeBitCast(f, to: (@convention(c) () -> Void).self)
                }
                if let g = dlsym(libc, "getenv") {
                    lookUp = unsafeBitCast(g, to: (@convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?).self)
                }
                if let e = dlsym(libc, "environ") {
                    copyEnvironment = e.assumingMemoryBound(to: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?.self)
                }
            }
            self.library = library
            ctypeInit = initializer
            environment = copyEnvironment
            copyGetenv = lookUp
            if copyEnvironment != nil { _ = Copy.makeIsolatedEnvironment() }
        }

        /// The copy's C library's getenv (nil in the main namespace), for `environmentValue`.
        private let copyGetenv: (@convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?)?
        /// Whether the copy lives in a namespace of its own.
        var isIsolated: Bool { environment != nil }

        /// `name` as the copy's Mesa reads it (for tests): through the copy's own getenv after
        /// `prepareThread`, or the process's for the main copy.
        func environmentValue(_ name: String) -> String? {
            prepareThread()
            let value = copyGetenv.map { $0(name) } ?? getenv(name)
            return value.map { String(cString: $0) }
        }

        /// Makes the copy usable on the calling thread; call before each use from a thread.
        func prepareThread() {
            ctypeInit?()
            environment?.pointee = Copy.isolatedEnvironment
        }
    }

    private let lock = NSLock()
    private var copies: [Copy] = []
    private var cannotLoadMore = false

    /// The copy a new context should use: a copy no context uses, loading one while fewer than
    /// `limit` (and `maxCopies`, and `GLSNAP_MESA_COPIES`) are loaded; past that, the least used
    /// of the first `limit`.
    func acquire(limit: Int, cap: Int? = OSMesaCopies.environmentLimit) throws -> Copy {
        let limit = min(limit, Self.maxCopies, cap ?? Self.maxCopies)
        lock.lock()
        defer { lock.unlock() }
        if copies.isEmpty {
            copies.append(Copy(library: try DynamicLibrary(names: Self.names, package: Self.package), isolated: false))
        }
        var copy = copies.prefix(limit).min { $0.contexts < $1.contexts }!
        if copy.contexts > 0, copies.count < limit, !cannotLoadMore {
            if let library = try? DynamicLibrary(names: Self.names, package: Self.package, isolated: true) {
                copy = Copy(library: library, isolated: true)
                copies.append(copy)
            } else {
                cannotLoadMore = true
            }
        }
        copy.contexts += 1
        return copy
    }

    func release(_ copy: Copy) {
        lock.lock()
        copy.contexts -= 1
        lock.unlock()
    }

    /// The copies loaded so far (for tests).
    var loaded: [Copy] { lock.lock(); defer { lock.unlock() }; return copies }

    /// How many copies are loaded (for tests).
    var count: Int { lock.lock(); defer { lock.unlock() }; return copies.count }
}
