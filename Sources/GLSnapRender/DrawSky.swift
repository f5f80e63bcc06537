import Foundation
import GLSnapGL
import GLSnapLayout
import GLSnapStyle

/// The sky of a frame whose view shows some of it: the style's evaluated `sky` and where the
/// horizon crosses the framebuffer. Nil (see `init`) when the frame has no sky or none of the
/// framebuffer lies above the horizon; such a frame draws exactly as one without a sky.
struct SkyView {
    let sky: Sky
    /// A point of the horizon in framebuffer pixels, y up from the piece's bottom-left corner.
    let point: (x: Double, y: Double)
    /// The unit normal that points to the sky.
    let normal: (x: Double, y: Double)
    /// Framebuffer pixels over which the sky fades from the horizon color to the sky color:
    /// `sky-horizon-blend` of half the view's height, as GL JS scales it.
    let blendPixels: Double

    init?(_ frame: Frame) {
        guard let sky = frame.sky else { return nil }
        let t = frame.transform
        let ratio = frame.pixelRatio
        let line = t.horizonLine
        // The image's window coordinates, then the piece's: its bottom-left corner is at
        // (piece.x, imageHeight - piece.y - piece.height) of the image.
        let bottom = Double(frame.imageHeight - frame.piece.y - frame.piece.height)
        let point = (x: line.point.x * ratio - Double(frame.piece.x), y: line.point.y * ratio - bottom)
        let w = Double(frame.width), h = Double(frame.height)
        let corners = [(0.0, 0.0), (w, 0.0), (0.0, h), (w, h)]
        guard corners.contains(where: { ($0.0 - point.x) * line.normal.x + ($0.1 - point.y) * line.normal.y > 0 }) else { return nil }
        self.sky = sky
        self.point = point
        self.normal = line.normal
        blendPixels = sky.skyHorizonBlend * t.height / 2 * ratio
    }
}

extension Painter {
    /// The sky, drawn first over the cleared framebuffer: the layers draw over it.
    func drawSky(_ view: SkyView) throws {
        let sky = try renderer.programs.program(SkyProgram.self)
        context.use(sky.program)
        let s = view.sky.skyColor, h = view.sky.horizonColor
        sky.uniforms.skyColor.set(Float(s.r), Float(s.g), Float(s.b), Float(s.a))
        sky.uniforms.horizonColor.set(Float(h.r), Float(h.g), Float(h.b), Float(h.a))
        sky.uniforms.horizon.set(Float(view.point.x), Float(view.point.y))
        sky.uniforms.horizonNormal.set(Float(view.normal.x), Float(view.normal.y))
        sky.uniforms.skyHorizonBlend.set(Float(view.blendPixels))
        bindStream(renderer.screenQuad, location: 0, components: 2, type: .float)
        sky.program.draw(indices: renderer.quadIndices, modes: DrawModes(color: .alphaBlended))
    }

    /// A plain background under a visible sky: the ground plane up to the far plane, not the
    /// whole view (which would hide the sky).
    func drawGroundBackground(color: Color, opacity: Double) throws {
        let ground = try renderer.programs.program(GroundProgram.self)
        context.use(ground.program)
        let t = frame.transform
        // GL JS draws its ground tiles only as far as the far plane, which ends at the horizon of
        // a pitched view; the sky shows above. The square reaches past the far plane's corners
        // (its half width across the widest side of a rolled view) and no farther: the smaller
        // it is, the more exactly the far plane cuts it.
        let halfFov = min(t.verticalFieldOfView, 179) * .pi / 360
        let reach = t.farZ * (1 + tan(halfFov) * (t.width + t.height) / t.height)
        ground.uniforms.matrix.set(frame.pieceMatrix(t.groundMatrix(halfSize: reach)))
        ground.uniforms.color.set(Float(color.r), Float(color.g), Float(color.b), Float(color.a))
        ground.uniforms.opacity.set(Float(opacity))
        bindStream(renderer.screenQuad, location: 0, components: 2, type: .float)
        ground.program.draw(indices: renderer.quadIndices, modes: DrawModes(color: .alphaBlended))
    }
}
