internal import CMesa

/// EGL without a window: a GPU through the device platform when one exists, otherwise Mesa's
/// surfaceless platform (llvmpipe). The context is made current with no surface at all.
final class EGLHeadlessContext: HeadlessContext {
    private typealias GetProcAddress = @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutableRawPointer?
    private typealias GetError = @convention(c) () -> EGLint
    private typealias Initialize = @convention(c) (EGLDisplay?, UnsafeMutablePointer<EGLint>?, UnsafeMutablePointer<EGLint>?) -> EGLBoolean
    private typealias BindAPI = @convention(c) (EGLenum) -> EGLBoolean
    private typealias ChooseConfig = @convention(c) (EGLDisplay?, UnsafePointer<EGLint>?, UnsafeMutablePointer<EGLConfig?>?, EGLint, UnsafeMutablePointer<EGLint>?) -> EGLBoolean
    private typealias CreateContext = @convention(c) (EGLDisplay?, EGLConfig?, EGLContext?, UnsafePointer<EGLint>?) -> EGLContext?
    private typealias MakeCurrent = @convention(c) (EGLDisplay?, EGLSurface?, EGLSurface?, EGLContext?) -> EGLBoolean
    private typealias DestroyContext = @convention(c) (EGLDisplay?, EGLContext?) -> EGLBoolean
    private typealias QueryString = @convention(c) (EGLDisplay?, EGLint) -> UnsafePointer<CChar>?
    private typealias QueryDevices = @convention(c) (EGLint, UnsafeMutablePointer<EGLDeviceEXT?>?, UnsafeMutablePointer<EGLint>?) -> EGLBoolean
    private typealias QueryDeviceString = @convention(c) (EGLDeviceEXT?, EGLint) -> UnsafePointer<CChar>?
    private typealias GetPlatformDisplay = @convention(c) (EGLenum, UnsafeMutableRawPointer?, UnsafePointer<EGLint>?) -> EGLDisplay?

    private static let library = Result { try DynamicLibrary(names: ["libEGL.so.1", "libEGL.so"], package: "libegl1 libegl-mesa0") }

    private let display: EGLDisplay
    private let context: EGLContext
    private let getProc: GetProcAddress
    private let makeCurrentFn: MakeCurrent
    private let getError: GetError
    private let destroyContext: DestroyContext
    let label: String

    init() throws {
        let lib = try EGLHeadlessContext.library.get()
        getProc = try lib.symbol("eglGetProcAddress")
        getError = try lib.symbol("eglGetError")
        makeCurrentFn = try lib.symbol("eglMakeCurrent")
        destroyContext = try lib.symbol("eglDestroyContext")
        let initialize: Initialize = try lib.symbol("eglInitialize")
        let bindAPI: BindAPI = try lib.symbol("eglBindAPI")
        let chooseConfig: ChooseConfig = try lib.symbol("eglChooseConfig")
        let createContext: CreateContext = try lib.symbol("eglCreateContext")
        let queryString: QueryString = try lib.symbol("eglQueryString")
        let getProc = self.getProc
        func ext<T>(_ name: String) -> T? { getProc(name).map { unsafeBitCast($0, to: T.self) } }
        let getError = self.getError
        func fail(_ call: String, _ hint: String = "") -> GLError {
            GLError.context(call: call, code: Int(getError()), hint: hint)
        }

        guard let getPlatformDisplay: GetPlatformDisplay = ext("eglGetPlatformDisplayEXT") else {
            throw fail("eglGetProcAddress(eglGetPlatformDisplayEXT)", "EGL lacks EGL_EXT_platform_base; install libegl-mesa0")
        }
        var chosen: (EGLDisplay, String)?
        // A hardware device first (the device platform), skipping Mesa's software device.
        if let queryDevices: QueryDevices = ext("eglQueryDevicesEXT"),
           let queryDeviceString: QueryDeviceString = ext("eglQueryDeviceStringEXT") {
            var devices = [EGLDeviceEXT?](repeating: nil, count: 16)
            var count: EGLint = 0
            if queryDevices(16, &devices, &count) != 0 {
                for device in devices.prefix(Int(count)) {
                    let exts = queryDeviceString(device, EGL_EXTENSIONS).map { String(cString: $0) } ?? ""
                    if exts.contains("EGL_MESA_device_software") { continue }
                    if let d = getPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), device, nil), initialize(d, nil, nil) != 0 {
                        chosen = (d, "EGL device")
                        break
                    }
                }
            }
        }
        if chosen == nil {
            guard let d = getPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil) else {
                throw fail("eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA)", "install libegl-mesa0 and libgl1-mesa-dri")
            }
            guard initialize(d, nil, nil) != 0 else {
                throw fail("eglInitialize", "Mesa's surfaceless EGL did not start; install libegl-mesa0 and libgl1-mesa-dri")
            }
            chosen = (d, "EGL surfaceless")
        }
        guard let (display, platform) = chosen else { throw fail("eglGetPlatformDisplayEXT") }
        self.display = display
        guard bindAPI(EGLenum(EGL_OPENGL_API)) != 0 else { throw fail("eglBindAPI(EGL_OPENGL_API)") }

        let configAttribs: [EGLint] = [EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE]
        var config: EGLConfig?
        var numConfigs: EGLint = 0
        if chooseConfig(display, configAttribs, &config, 1, &numConfigs) == 0 || numConfigs == 0 {
            config = nil // EGL_KHR_no_config_context: a context without a config is fine with no surface.
        }
        let contextAttribs: [EGLint] = [
            EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
            EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
            EGL_NONE,
        ]
        guard let ctx = createContext(display, config, nil, contextAttribs) else {
            throw fail("eglCreateContext", "the EGL driver gives no OpenGL 3.3 core context")
        }
        context = ctx
        let vendor = queryString(display, EGL_VENDOR).map { String(cString: $0) } ?? "unknown"
        label = "\(platform) (\(vendor))"
    }

    deinit {
        _ = makeCurrentFn(display, nil, nil, nil)
        _ = destroyContext(display, context)
    }

    func makeCurrent() throws {
        guard makeCurrentFn(display, nil, nil, context) != 0 else {
            throw GLError.context(call: "eglMakeCurrent", code: Int(getError()), hint: "the driver lacks EGL_KHR_surfaceless_context")
        }
    }

    func releaseCurrent() { _ = makeCurrentFn(display, nil, nil, nil) }

    func procAddress(_ name: String) -> UnsafeMutableRawPointer? { getProc(name) }
}
