import Foundation

/// The file `glsnap render` writes its image to, written so that nothing is lost.
///
/// A regular file (new, or one that exists) is written to a temporary file beside it
/// (`.NAME.glsnap-XXXXXX`) and renamed over the final name only when the image is complete, with
/// the mode the old file had (a new one gets 0666 less the umask). A render that fails, is refused
/// (`--strict`) or is interrupted leaves the earlier file as it was and no partial file under the
/// final name; SIGINT, SIGTERM and SIGHUP also remove the temporary file (`kill -9` leaves it,
/// under its temporary name). A symbolic link is followed and its target replaced the same way,
/// so the link stays a link. A FIFO, a character device (`/dev/stdout`) or a socket cannot be
/// renamed over and is written in place.
final class OutputFile {
    /// The name as given (for messages).
    let path: String
    /// Where the image lands: `path` with symbolic links followed.
    private let finalPath: String
    /// The file being written, renamed to `finalPath` on commit; nil when writing in place.
    private let temporaryPath: String?
    private var descriptor: Int32
    private var done = false

    init(path: String) throws {
        self.path = path
        let target = OutputFile.followingLinks(path)
        var info = stat()
        var mode: mode_t
        if stat(target, &info) == 0 {
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR { throw CLIError("cannot write \(path): it is a folder") }
            if type != S_IFREG {
                descriptor = open(target, O_WRONLY | O_CLOEXEC)
                guard descriptor >= 0 else { throw CLIError("cannot write \(path): \(OutputFile.lastError())") }
                finalPath = target
                temporaryPath = nil
                return
            }
            mode = info.st_mode & 0o7777
        } else {
            let mask = umask(0)
            umask(mask)
            mode = 0o666 & ~mask
        }
        let folder = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        var template = Array("\(folder.isEmpty ? "." : folder)/.\(name).glsnap-XXXXXX".utf8CString)
        descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw CLIError("cannot write \(path): \(OutputFile.lastError())") }
        let temporary = String(cString: template)
        fchmod(descriptor, mode)
        finalPath = target
        temporaryPath = temporary
        OutputFile.removeOnSignal(temporary)
    }

    deinit { discard() }

    /// Appends `bytes`.
    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Appends `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw CLIError("cannot write \(path): \(OutputFile.lastError())")
            }
            offset += n
        }
    }

    /// Makes the written bytes the file: flushed to disk, then renamed over the final name.
    func commit() throws {
        guard !done else { return }
        done = true
        let closed: Int32
        if let temporaryPath {
            guard fsync(descriptor) == 0 else {
                let reason = OutputFile.lastError()
                close(descriptor)
                unlink(temporaryPath)
                throw CLIError("cannot write \(path): \(reason)")
            }
            closed = close(descriptor)
            guard closed == 0, rename(temporaryPath, finalPath) == 0 else {
                let reason = OutputFile.lastError()
                unlink(temporaryPath)
                OutputFile.removeOnSignal(nil)
                throw CLIError("cannot write \(path): \(reason)")
            }
            OutputFile.removeOnSignal(nil)
        } else {
            closed = close(descriptor)
            guard closed == 0 else { throw CLIError("cannot write \(path): \(OutputFile.lastError())") }
        }
    }

    /// Drops what was written: the temporary file is removed and the earlier file stays.
    func discard() {
        guard !done else { return }
        done = true
        close(descriptor)
        if let temporaryPath {
            unlink(temporaryPath)
            OutputFile.removeOnSignal(nil)
        }
    }

    /// `path` with symbolic links followed (also a link to a file that does not exist yet).
    private static func followingLinks(_ path: String) -> String {
        var current = path
        // Linux gives up after 40 links in a row; so does this.
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n > 0 else { return current }
            let text = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = text.hasPrefix("/") ? text : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(text)
        }
        return current
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }

    /// The temporary file that a terminating signal removes (a C string, for the handler).
    nonisolated(unsafe) private static var pendingRemoval: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var handlersInstalled = false

    private static func removeOnSignal(_ temporary: String?) {
        let old = pendingRemoval
        pendingRemoval = temporary.map { strdup($0) }
        free(old)
        guard temporary != nil, !handlersInstalled else { return }
        handlersInstalled = true
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                if let path = OutputFile.pendingRemoval { unlink(path) }
                // Then end as the signal would have.
                Glibc.signal(number, SIG_DFL)
                raise(number)
            }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }
}
