import Foundation
import GLSnap
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
}

/// A failure of a C call: its status and the sentence `glsnap_error` returns.
struct CallError: Error {
    let status: Status
    let message: String

    init(_ status: Status, _ message: String) { self.status = status; self.message = message }

    /// Any error a call met, as a status and its message (GLSnapError cases keep their kind).
    init(_ error: Error) {
        if let e = error as? CallError { self = e; return }
        if let e = error as? GLSnapError {
            switch e {
            case .invalidOptions: self.init(.invalidArgument, e.description)
            case .style: self.init(.style, e.description)
            case .source: self.init(.source, e.description)
            case .render: self.init(.render, e.description)
            case .timedOut: self.init(.timedOut, e.description)
            }
            return
        }
        self.init(.render, "\(error)")
    }
}

/// The last error message of each thread that failed a call on a handle: a thread reads its own
/// (so a pool of threads sharing one snapshotter never sees another thread's message). A thread's
/// entry goes when its next call succeeds, so the table holds at most one entry per failing thread.
final class ErrorSlots: @unchecked Sendable {
    private var messages: [UInt: [CChar]] = [:]
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
            set(e.message)
            return e.status.rawValue
        }
    }

    func set(_ message: String) {
        lock.lock(); defer { lock.unlock() }
        messages[ErrorSlots.me] = Array(message.utf8CString)
    }

    func clear() {
        lock.lock(); defer { lock.unlock() }
        if !messages.isEmpty { messages[ErrorSlots.me] = nil }
    }

    /// This thread's message, or an empty string; the pointer stays valid until this thread's next
    /// call on the handle (the array is kept in the table until then).
    func current() -> UnsafePointer<CChar> {
        lock.lock(); defer { lock.unlock() }
        guard let m = messages[ErrorSlots.me] else { return ErrorSlots.empty }
        return m.withUnsafeBufferPointer { $0.baseAddress! }
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
