import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Whether EGL exists on this machine, asked without glsnap's own EGL code so that a regression
/// there cannot make its test skip: EGL exists when libEGL loads and either its device platform
/// enumerates a device or Mesa's surfaceless platform gives a display that initializes. Where it
/// exists, the EGL tests must draw; they skip only with `absence`'s reason.
public enum EGLProbe {
    /// nil when EGL exists; else why not (no libEGL, no platform extension, nothing enumerates).
    public static let absence: String? = probe()

    /// Throws XCTSkip with the reason when EGL does not exist here.
    public static func requireEGL() throws {
        if let absence { throw XCTSkip("EGL does not exist here: \(absence)") }
    }

    private typealias GetProcAddress = @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutableRawPointer?
    private typealias QueryDevices = @convention(c) (Int32, UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<Int32>?) -> UInt32
    private typealias GetPlatformDisplay = @convention(c) (UInt32, UnsafeMutableRawPointer?, UnsafePointer<Int32>?) -> OpaquePointer?
    private typealias Initialize = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> UInt32

    private static let platformSurfacelessMESA: UInt32 = 0x31DD

    private static func probe() -> String? {
        guard let lib = dlopen("libEGL.so.1", RTLD_NOW) ?? dlopen("libEGL.so", RTLD_NOW) else {
            return "libEGL.so.1 does not load (\(String(cString: dlerror())))"
        }
        guard let sym = dlsym(lib, "eglGetProcAddress") else { return "libEGL has no eglGetProcAddress" }
        let getProc = unsafeBitCast(sym, to: GetProcAddress.self)
        func ext<T>(_ name: String, _ type: T.Type) -> T? { getProc(name).map { unsafeBitCast($0, to: T.self) } }
        if let queryDevices = ext("eglQueryDevicesEXT", QueryDevices.self) {
            var count: Int32 = 0
            if queryDevices(0, nil, &count) != 0, count > 0 { return nil }
        }
        guard let getPlatformDisplay = ext("eglGetPlatformDisplayEXT", GetPlatformDisplay.self),
              let initSym = dlsym(lib, "eglInitialize") else {
            return "libEGL enumerates no device and lacks eglGetPlatformDisplayEXT"
        }
        guard let display = getPlatformDisplay(platformSurfacelessMESA, nil, nil),
              unsafeBitCast(initSym, to: Initialize.self)(display, nil, nil) != 0 else {
            return "libEGL enumerates no device and has no surfaceless platform"
        }
        return nil
    }
}
