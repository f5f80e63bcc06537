import Foundation

/// Turns the URLs a style names (tiles, TileJSON, MBTiles files) into local files and reads them.
///
/// Resolution, in order:
/// 1. `rewrite`, when set and it returns non-nil, maps the URL first (e.g. `local://tiles/x` to
///    a folder of test fixtures); its result is resolved by the rules below.
/// 2. `file://` URLs name an absolute path (percent-escapes decoded).
/// 3. `mbtiles://` URLs name a path after the scheme: `mbtiles:///abs/x.mbtiles` is absolute,
///    `mbtiles://../tiles/x.mbtiles` is relative.
/// 4. `pmtiles://` URLs name a PMTiles file the same way.
/// 5. `http://` and `https://` URLs are fetched through `http` (a 404 is a missing resource).
/// 6. Any other scheme (an unmapped `local:` …) is unsupported here.
/// 7. Absolute paths are used as they are; relative paths are resolved against the directory
///    of `baseURL` (or the current directory when there is none); when `baseURL` is an HTTP(S)
///    URL, relative references resolve against it as URLs.
public struct ResourceResolver: Sendable {
    /// The style file's URL or path, or a directory (then ending in `/`, or an existing folder).
    public var baseURL: String?
    /// Maps custom schemes to a file path or URL; nil means "not mine".
    public var rewrite: (@Sendable (String) -> String?)?
    /// The most bytes `load` reads from one file.
    public var sizeLimit: Int
    /// Fetches `http://` and `https://` resources (its options hold the timeouts and size limit).
    public var http: HTTPClient

    public init(baseURL: String? = nil, rewrite: (@Sendable (String) -> String?)? = nil,
                sizeLimit: Int = DataLimits.maxResourceBytes, http: HTTPClient = .shared) {
        self.baseURL = baseURL
        self.rewrite = rewrite
        self.sizeLimit = sizeLimit
        self.http = http
    }

    /// Where a URL points: a local file or a remote (HTTP) resource.
    public enum Location: Equatable, Sendable {
        case file(String)
        case remote(String)

        /// The path or URL.
        public var text: String {
            switch self { case .file(let s), .remote(let s): return s }
        }
    }

    /// The file or remote URL that `url` names, relative references resolved.
    public func location(for url: String) throws -> Location {
        let found = try unencodedLocation(for: url)
        guard case .remote(let remote) = found else { return found }
        return .remote(remote.addingPercentEncoding(withAllowedCharacters: ResourceResolver.urlCharacters) ?? remote)
    }

    /// What may stand in a URL as it is: unreserved and reserved characters, and "%" (a URL may
    /// already be encoded). Anything else ("Noto Sans" in a glyph URL) is percent-encoded.
    static let urlCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                            + "-._~:/?#[]@!$&'()*+,;=%")

    private func unencodedLocation(for url: String) throws -> Location {
        var target = url
        if let rewrite, let mapped = rewrite(url) { target = mapped }
        if HTTPClient.handles(target) { return .remote(target) }
        if target.hasPrefix("file://") {
            let rest = String(target.dropFirst("file://".count))
            return .file(rest.removingPercentEncoding ?? rest)
        }
        for scheme in ["mbtiles://", "pmtiles://"] where target.hasPrefix(scheme) {
            return try relative(String(target.dropFirst(scheme.count)), url: url)
        }
        if let colon = target.firstIndex(of: ":"), target[colon...].hasPrefix("://") {
            throw SourceError.unsupportedURL(url: url, reason: "only file paths and file://, mbtiles://, pmtiles://, "
                + "http:// and https:// URLs are read (configure ResourceResolver.rewrite for '\(target[..<colon])://')")
        }
        return try relative(target, url: url)
    }

    /// The local file path `url` names; throws `unsupportedURL` for a remote URL.
    public func filePath(for url: String) throws -> String {
        switch try location(for: url) {
        case .file(let path): return path
        case .remote(let remote):
            throw SourceError.unsupportedURL(url: url, reason: "\(remote) is remote; this resource must be a local file")
        }
    }

    private func relative(_ path: String, url: String) throws -> Location {
        if let base = baseURL, HTTPClient.handles(base), !path.hasPrefix("/") || path.hasPrefix("//") {
            return .remote(ResourceResolver.join(base: base, path))
        }
        if let base = baseURL, HTTPClient.handles(base) {
            return .remote(ResourceResolver.origin(of: base) + path)
        }
        return .file(absolute(path))
    }

    /// `scheme://host[:port]` of an HTTP URL.
    static func origin(of url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let hostEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        return String(url[..<hostEnd])
    }

    /// A relative reference resolved against an HTTP base URL ("./" and "../" folded).
    static func join(base: String, _ path: String) -> String {
        if path.hasPrefix("//"), let colon = base.firstIndex(of: ":") { return String(base[...colon]) + path }
        let origin = origin(of: base)
        var basePath = String(base.dropFirst(origin.count))
        if let cut = basePath.firstIndex(where: { $0 == "?" || $0 == "#" }) { basePath = String(basePath[..<cut]) }
        var segments = basePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        segments.removeLast()  // the base's file name (or "" after a trailing slash)
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for (i, part) in parts.enumerated() {
            if part == "." { continue }
            if part == ".." { if segments.count > 1 { segments.removeLast() }; continue }
            if part.isEmpty && i < parts.count - 1 { continue }
            segments.append(part)
        }
        let joined = segments.joined(separator: "/")
        return origin + (joined.hasPrefix("/") ? joined : "/" + joined)
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
            throw SourceError.fileNotFound(path: try location(for: url).text, url: url)
        }
        return bytes
    }

    /// Like `load`, but nil when the file does not exist (a missing tile is an empty tile).
    public func loadIfPresent(_ url: String) throws -> [UInt8]? {
        let path: String
        switch try location(for: url) {
        case .file(let p): path = p
        case .remote(let remote):
            guard let body = try http.fetch(remote) else { return nil }
            guard body.count <= sizeLimit else { throw SourceError.tooLarge(url: url, size: body.count, limit: sizeLimit) }
            return body
        }
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
