internal import CMesa

/// OSMesa: a GL 3.3 core context rendering in memory; the renderer is llvmpipe.
final class OSMesaHeadlessContext: HeadlessContext {
    private typealias CreateAttribs = @convention(c) (UnsafePointer<Int32>?, OSMesaContext?) -> OSMesaContext?
    private typealias MakeCurrent = @convention(c) (OSMesaContext?, UnsafeMutableRawPointer?, GLenum, GLsizei, GLsizei) -> GLboolean
    private typealias GetProcAddress = @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutableRawPointer?
    private typealias Destroy = @convention(c) (OSMesaContext?) -> Void

    /// The copy of Mesa this context lives in (see `OSMesaCopies`).
    private let copy: OSMesaCopies.Copy
    private let context: OSMesaContext
    private let getProc: GetProcAddress
    private let makeCurrentFn: MakeCurrent
    private let destroy: Destroy
    /// OSMesa wants a color buffer to make a context current; drawing goes to an FBO, so 1x1 is enough.
    private let dummy = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)

    let label = "OSMesa (llvmpipe)"

    init(rasterizer: SoftwareRasterizer) throws {
        rasterizer.applyOnce()
        let copy = try OSMesaCopies.shared.acquire(limit: rasterizer.copies)
        let attribs: [Int32] = [
            OSMESA_FORMAT, OSMESA_RGBA,
            OSMESA_DEPTH_BITS, 0, OSMESA_STENCIL_BITS, 0, OSMESA_ACCUM_BITS, 0,
            OSMESA_PROFILE, OSMESA_CORE_PROFILE,
            OSMESA_CONTEXT_MAJOR_VERSION, 3, OSMESA_CONTEXT_MINOR_VERSION, 3,
            0,
        ]
        copy.prepareThread()
        do {
            let lib = copy.library
            let create: CreateAttribs = try lib.symbol("OSMesaCreateContextAttribs")
            makeCurrentFn = try lib.symbol("OSMesaMakeCurrent")
            getProc = try lib.symbol("OSMesaGetProcAddress")
            destroy = try lib.symbol("OSMesaDestroyContext")
            guard let ctx = attribs.withUnsafeBufferPointer({ create($0.baseAddress, nil) }) else {
                throw GLError.context(call: "OSMesaCreateContextAttribs", code: 0,
                                      hint: "OSMesa could not create a GL 3.3 core context; install libosmesa6 from Mesa 22 or later")
            }
            context = ctx
        } catch {
            dummy.deallocate()
            OSMesaCopies.shared.release(copy)
            throw error
        }
        self.copy = copy
    }

    deinit {
        copy.prepareThread()
        _ = makeCurrentFn(nil, nil, 0, 0, 0)
        destroy(context)
        dummy.deallocate()
        OSMesaCopies.shared.release(copy)
    }

    func makeCurrent() throws {
        copy.prepareThread()
        guard makeCurrentFn(context, dummy, GLenum(GL_UNSIGNED_BYTE), 1, 1) != 0 else {
            throw GLError.context(call: "OSMesaMakeCurrent", code: 0, hint: "")
        }
    }

    func releaseCurrent() {
        copy.prepareThread()
        _ = makeCurrentFn(nil, nil, 0, 0, 0)
    }

    func procAddress(_ name: String) -> UnsafeMutableRawPointer? { getProc(name) }
}
