/// Everything that can go wrong in the GL layer, with what a user can do about it.
public enum GLError: Error, CustomStringConvertible {
    /// A shared library could not be loaded.
    case library(name: String, reason: String, install: String)
    /// A context call failed (`call` names it, `code` is the backend's error code).
    case context(call: String, code: Int, hint: String)
    /// A GL function is missing from the driver.
    case missingFunction(String)
    /// A shader did not compile or a program did not link.
    case shader(program: String, stage: String, log: String)
    /// The offscreen framebuffer is incomplete (status is the GL enum).
    case framebuffer(status: UInt32, width: Int, height: Int)
    /// A size outside what the driver supports.
    case size(width: Int, height: Int, max: Int)
    /// glGetError reported an error after `operation`.
    case gl(operation: String, code: UInt32)

    public var description: String {
        switch self {
        case let .library(name, reason, install):
            return "cannot load \(name) (\(reason)); install it with: \(install)"
        case let .context(call, code, hint):
            return "\(call) failed (error 0x\(String(code, radix: 16)))" + (hint.isEmpty ? "" : ": \(hint)")
        case let .missingFunction(name):
            return "the GL driver has no \(name); glsnap needs OpenGL 3.3 core (Mesa 22 or later)"
        case let .shader(program, stage, log):
            return "shader program '\(program)' failed to \(stage): \(log)"
        case let .framebuffer(status, w, h):
            return "offscreen framebuffer \(w)x\(h) is incomplete (status 0x\(String(status, radix: 16)))"
        case let .size(w, h, max):
            return "image size \(w)x\(h) exceeds the GL limit of \(max) pixels per side"
        case let .gl(operation, code):
            return "GL error 0x\(String(code, radix: 16)) after \(operation)"
        }
    }
}

func resolve<T>(_ name: String, _ load: (String) -> UnsafeMutableRawPointer?) throws -> T {
    guard let p = load(name) else { throw GLError.missingFunction(name) }
    return unsafeBitCast(p, to: T.self)
}
