internal import CMesa

/// A shared library opened with dlopen, so a backend's library is needed only when it is used.
final class DynamicLibrary {
    let handle: UnsafeMutableRawPointer
    let name: String

    /// Opens the first of `names` that loads; the error names the package that provides it.
    /// With `isolated`, the library and everything it loads get a link-map namespace of their own
    /// (dlmopen), sharing no globals with other copies.
    init(names: [String], package: String, isolated: Bool = false) throws {
        var reason = "not found"
        for n in names {
            let lmidNew = -1 // LM_ID_NEWLM
            if let h = isolated ? dlmopen(lmidNew, n, RTLD_NOW | RTLD_LOCAL) : dlopen(n, RTLD_NOW | RTLD_LOCAL) {
                handle = h
                name = n
                return
            }
            if let e = dlerror() { reason = String(cString: e) }
        }
        throw GLError.library(name: names[0], reason: reason, install: "apt-get install \(package)")
    }

    func symbol<T>(_ symbol: String, as type: T.Type = T.self) throws -> T {
        guard let p = dlsym(handle, symbol) else {
            throw GLError.library(name: name, reason: "it has no symbol \(symbol)", install: "a newer Mesa")
        }
        return unsafeBitCast(p, to: T.self)
    }

    func optionalSymbol(_ symbol: String) -> UnsafeMutableRawPointer? { dlsym(handle, symbol) }

    // Never dlclose: Mesa keeps threads and atexit handlers that point into the library.
}
