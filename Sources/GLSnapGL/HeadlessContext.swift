/// The GL backends glsnap can render through.
public enum Backend: String, CaseIterable, Sendable {
    /// Mesa's OSMesa with llvmpipe: needs neither a display nor EGL.
    case osmesa
    /// EGL: the device platform on a GPU when one is present, else Mesa's surfaceless platform.
    case egl
}

/// A headless GL context: all a backend must do. Rendering goes into a framebuffer object the
/// `GLContext` creates, so the backend's own surface is never drawn to.
protocol HeadlessContext: AnyObject {
    /// Binds the context to the calling thread.
    func makeCurrent() throws
    /// Unbinds the calling thread's current context, so another thread may bind it.
    func releaseCurrent()
    /// The address of a GL function, or nil.
    func procAddress(_ name: String) -> UnsafeMutableRawPointer?
    /// A short description of the driver, for logs ("OSMesa llvmpipe").
    var label: String { get }
}

func makeHeadlessContext(_ backend: Backend, rasterizer: SoftwareRasterizer) throws -> HeadlessContext {
    switch backend {
    case .osmesa: return try OSMesaHeadlessContext(rasterizer: rasterizer)
    case .egl:
        // Surfaceless EGL is llvmpipe too; on a GPU the thread setting is not read.
        rasterizer.applyOnce()
        return try EGLHeadlessContext()
    }
}
