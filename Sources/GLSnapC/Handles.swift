import Foundation
import GLSnap
import GLSnapData
import GLSnapStyle

/// Status codes of the C ABI (glsnap.h's `glsnap_status`); keep the two in step.
enum Status: Int32 {
    case ok = 0
    case invalidArgument = 1
    case style = 2
    case source = 3
    case render = 4
    case notFound = 5
    case image = 6
    case timedOut = 7
    case gl = 8
    case limit = 9
}

/// A failure of a C call: its status, the sentence `glsnap_error` returns and, for a style
/// refused or an edit the style spec does not allow, its problems with their JSON paths
/// (`glsnap_error_problem_*`); for a source, its name and the tile and file at fault (`glsnap_error_source*`).
struct CallError: Error {
    let status: Status
    let message: String
    var problems: [StyleProblem] = []
    var source: (name: String, tile: TileID?, location: String?)?

    init(_ status: Status, _ message: String, problems: [StyleProblem] = []) {
        self.status = status; self.message = message; self.problems = problems
    }

    /// Any error a call met, as a status and its message (each GLSnapError case has its status).
    init(_ error: Error) {
        switch error {
        case let e as CallError: self = e
        case let e as GLSnapError:
            self.init(CallError.status(of: e), e.description, problems: e.problems)
            if case let .source(name, tile, location, _) = e { source = (name, tile, location) }
        case let e as StyleEditError: self.init(e.notFound ? .notFound : .style, e.description, problems: e.problems)
        default: self.init(.render, "\(error)")
        }
    }

    static func status(of error: GLSnapError) -> Status {
        switch error {
        case .invalidOptions: return .invalidArgument
        case .limit: return .limit
        case .style: return .style
        case .source: return .source
        case .gl: return .gl
        case .render: return .render
        case .timedOut: return .timedOut
        }
    }
}

/// The last error of each thread that failed a call on a handle: a thread reads its own (so a
/// pool of threads sharing one snapshotter never sees another thread's message). A thread's
/// entry goes when its next call succeeds, so the table holds at most one entry per failing thread.
final class ErrorSlots: @unchecked Sendable {
    /// A failure as C reads it: NUL-terminated texts kept until the thread's next call.
    private struct Entry {
        var message: [CChar]
        var problems: [(path: [CChar], message: [CChar], line: Int32)]
        var source: (name: [CChar], tile: TileID?, location: [CChar]?)?
    }

    private var entries: [UInt: Entry] = [:]
    private let lock = NSLock()

    private static var me: UInt { UInt(pthread_self()) }

    /// Runs a call: records its error for this thread and returns the status code.
    func call(_ body: () throws -> Void) -> Int32 {
        do {
            try body()
            clear()
            return Status.ok.rawValue
        } catch {
            let e = CallError(error)
            set(e)
            return e.status.rawValue
        }
    }

    func set(_ error: CallError) {
        let entry = Entry(message: Array(error.message.utf8CString),
                          problems: error.problems.map { (Array($0.path.utf8CString), Array($0.message.utf8CString), Int32(clamping: $0.line ?? 0)) },
                          source: error.source.map { (Array($0.name.utf8CString), $0.tile, $0.location.map { Array($0.utf8CString) }) })
        lock.lock(); defer { lock.unlock() }
        entries[ErrorSlots.me] = entry
    }

    func clear() {
        lock.lock(); defer { lock.unlock() }
        if !entries.isEmpty { entries[ErrorSlots.me] = nil }
    }

    /// This thread's message, or an empty string; the pointer stays valid until this thread's next
    /// call on the handle (the array is kept in the table until then).
    func current() -> UnsafePointer<CChar> {
        lock.lock(); defer { lock.unlock() }
        guard let m = entries[ErrorSlots.me]?.message else { return ErrorSlots.empty }
        return m.withUnsafeBufferPointer { $0.baseAddress! }
    }

    /// How many style problems this thread's last failure has (0 after a success).
    func problemCount() -> Int {
        lock.lock(); defer { lock.unlock() }
        return entries[ErrorSlots.me]?.problems.count ?? 0
    }

    /// Problem `index`'s JSON path (`path` true) or message, valid as `current()`'s; nil out of range.
    func problemText(_ index: Int, path: Bool) -> UnsafePointer<CChar>? {
        lock.lock(); defer { lock.unlock() }
        guard let problems = entries[ErrorSlots.me]?.problems, problems.indices.contains(index) else { return nil }
        let text = path ? problems[index].path : problems[index].message
        return text.withUnsafeBufferPointer { $0.baseAddress! }
    }

    /// The source of this thread's last failure (`location` false) or the file or URL of its tile, valid as `current()`'s; nil when none.
    func sourceText(location: Bool) -> UnsafePointer<CChar>? {
        lock.lock(); defer { lock.unlock() }
        guard let source = entries[ErrorSlots.me]?.source, let text = location ? source.location : source.name else { return nil }
        return text.withUnsafeBufferPointer { $0.baseAddress! }
    }

    /// The tile of this thread's last failure, nil when it was not about a tile.
    func sourceTile() -> TileID? {
        lock.lock(); defer { lock.unlock() }
        return entries[ErrorSlots.me]?.source?.tile
    }

    /// Problem `index`'s line in the style file, 0 when unknown or out of range.
    func problemLine(_ index: Int) -> Int32 {
        lock.lock(); defer { lock.unlock() }
        guard let problems = entries[ErrorSlots.me]?.problems, problems.indices.contains(index) else { return 0 }
        return problems[index].line
    }

    private static let empty: UnsafePointer<CChar> = {
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
        p.pointee = 0
        return UnsafePointer(p)
    }()
}

/// What `glsnap_snapshotter*` points at: the snapshotter, the style JSON it holds (for the
/// style-editing calls, which change it and load it again) and its error slots.
final class SnapshotterHandle: @unchecked Sendable {
    let snapshotter: Snapshotter
    let errors = ErrorSlots()
    /// The loaded style as JSON and the base its relative URLs resolve against; nil before a
    /// style is set (or for a style fetched over HTTP, whose text is not kept).
    var style: StyleDocument? { didSet { tiles = nil } }
    /// The tile pyramid of the last `glsnap_tiles_*` call (CAPI+Tiles.swift); a new style drops it.
    var tiles: TilesState?
    /// Serializes style changes (set, edit, images) against each other; renders do not take it.
    let styleLock = NSLock()

    init(_ snapshotter: Snapshotter) { self.snapshotter = snapshotter }
}

/// What `glsnap_snapshot*` points at: one rendered image and its error slots (encoding).
final class SnapshotHandle: @unchecked Sendable {
    let snapshot: Snapshot
    let errors = ErrorSlots()
    init(_ snapshot: Snapshot) { self.snapshot = snapshot }
}

extension UnsafeMutableRawPointer {
    func snapshotter() -> SnapshotterHandle { Unmanaged<SnapshotterHandle>.fromOpaque(self).takeUnretainedValue() }
    func snapshotHandle() -> SnapshotHandle { Unmanaged<SnapshotHandle>.fromOpaque(self).takeUnretainedValue() }
}

/// A C string argument as Swift text, or an error naming the argument.
func text(_ p: UnsafePointer<CChar>?, _ name: String) throws -> String {
    guard let p else { throw CallError(.invalidArgument, "\(name) is NULL") }
    guard let s = String(validatingCString: p) else { throw CallError(.invalidArgument, "\(name) is not valid UTF-8") }
    return s
}

/// Bytes handed to C: malloc'ed, so `glsnap_free` (free) releases them.
func mallocCopy(_ bytes: [UInt8], _ out: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, _ length: UnsafeMutablePointer<Int>?) throws {
    guard let p = malloc(max(1, bytes.count))?.assumingMemoryBound(to: UInt8.self) else {
        throw CallError(.render, "out of memory for \(bytes.count) bytes")
    }
    bytes.withUnsafeBufferPointer { if let b = $0.baseAddress { p.update(from: b, count: bytes.count) } }
    out.pointee = p
    length?.pointee = bytes.count
}

/// A NUL-terminated malloc'ed copy of `s`, freed with `glsnap_free`.
func mallocString(_ s: String, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) throws {
    let bytes = Array(s.utf8CString)
    guard let p = malloc(bytes.count)?.assumingMemoryBound(to: CChar.self) else {
        throw CallError(.render, "out of memory for \(bytes.count) bytes")
    }
    bytes.withUnsafeBufferPointer { p.update(from: $0.baseAddress!, count: bytes.count) }
    out.pointee = p
}
