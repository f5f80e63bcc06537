import Foundation

/// Turns the URLs a style names (tiles, TileJSON, MBTiles files) into local files and reads them.
///
/// Resolution, in order:
/// 1. `rewrite`, when set and it returns non-nil, maps the URL first (e.g. `local://tiles/x` to
///    a folder of test fixtures); its result is resolved by the rules below.
/// 2. `file://` URLs name an absolute path (percent-escapes decoded).
/// 3. `mbtiles://` URLs name a path after the scheme: `mbtiles:///abs/x.mbtiles` is absolute,
///    `mbtiles://../tiles/x.mbtiles` is relative.
/// 4. Any other scheme (`http:`, `https:`, an unmapped `local:` …) is unsupported here.
/// 5. Absolute paths are used as they are; relative paths are resolved against the directory
///    of `baseURL` (or the current directory when there is none).
public struct ResourceResolver: Sendable {
    /// The style file's URL or path, or a directory (then ending in `/`, or an existing folder).
    public var baseURL: String?
    /// Maps custom schemes to a file path or URL; nil means "not mine".
    public var rewrite: (@Sendable (String) -> String?)?
    /// The most bytes `load` reads from one file.
    public var sizeLimit: Int

    public init(baseURL: String? = nil, rewrite: (@Sendable (String) -> String?)? = nil,
                sizeLimit: Int = DataLimits.maxResourceBytes) {
        self.baseURL = baseURL
        self.rewrite = rewrite
        self.sizeLimit = sizeLimit
    }

    /// The local file path `url` names.
    public func filePath(for url: String) throws -> String {
        var target = url
        if let rewrite, let mapped = rewrite(url) { target = mapped }
        if target.hasPrefix("file://") {
            let rest = String(target.dropFirst("file://".count))
            return rest.removingPercentEncoding ?? rest
        }
        if target.hasPrefix("mbtiles://") {
            return absolute(String(target.dropFirst("mbtiles://".count)))
        }
        if let colon = target.firstIndex(of: ":"), target[colon...].hasPrefix("://") {
            throw SourceError.unsupportedURL(url: url, reason: "only file paths, file:// and mbtiles:// URLs are read "
                + "(configure ResourceResolver.rewrite for '\(target[..<colon])://')")
        }
        return absolute(target)
    }

    /// A path relative to the base directory made absolute.
    private func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        // Fold "../" so error messages name the file plainly.
        return ((baseDirectory as NSString).appendingPathComponent(path) as NSString).standardizingPath
    }

    /// The directory relative paths resolve against.
    public var baseDirectory: String {
        guard var base = baseURL, !base.isEmpty else { return FileManager.default.currentDirectoryPath }
        if base.hasPrefix("file://") {
            let rest = String(base.dropFirst("file://".count))
            base = rest.removingPercentEncoding ?? rest
        }
        if !base.hasPrefix("/") {
            base = (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(base)
        }
        var isDirectory: ObjCBool = false
        if base.hasSuffix("/") || (FileManager.default.fileExists(atPath: base, isDirectory: &isDirectory)
                                   && isDirectory.boolValue) {
            return base
        }
        return (base as NSString).deletingLastPathComponent
    }

    /// The bytes of `url`. Throws `SourceError.fileNotFound` naming the resolved path,
    /// `tooLarge` past `sizeLimit`, `unsupportedURL` for schemes it cannot read.
    public func load(_ url: String) throws -> [UInt8] {
        guard let bytes = try loadIfPresent(url) else {
            throw SourceError.fileNotFound(path: try filePath(for: url), url: url)
        }
        return bytes
    }

    /// Like `load`, but nil when the file does not exist (a missing tile is an empty tile).
    public func loadIfPresent(_ url: String) throws -> [UInt8]? {
        let path = try filePath(for: url)
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw SourceError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw SourceError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw SourceError.unreadable(path: path, reason: "not a regular file")
        }
        let size = Int(info.st_size)
        guard size <= sizeLimit else { throw SourceError.tooLarge(url: url, size: size, limit: sizeLimit) }
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let n = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return read(fd, base + filled, size - filled)
            }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw SourceError.unreadable(path: path, reason: String(cString: strerror(errno))) }
            if n == 0 { break }  // The file shrank while being read; keep what was there.
            filled += n
        }
        if filled < size { bytes.removeLast(size - filled) }
        return bytes
    }
}
