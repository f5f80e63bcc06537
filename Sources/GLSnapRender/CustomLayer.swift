import GLSnapGL
import GLSnapLayout

/// Whether a custom layer shares the depth buffer with the map's 3D content (MapLibre's
/// `renderingMode`).
public enum CustomLayerRenderingMode: String, Sendable {
    /// Drawn over what is below it, no depth test (GL JS's "2d").
    case flat = "2d"
    /// Depth-tested against and writing to the depth buffer that fill extrusions use (GL JS's "3d").
    case threeD = "3d"
}

/// A layer drawn by the caller's own GL code, in style order among the style's layers: MapLibre's
/// `CustomLayerInterface` (GL JS's `{type: "custom", onAdd, prerender, render, onRemove}`, Native's
/// `CustomLayerHost`). Add one with `Snapshotter.addCustomLayer(_:id:before:)`.
///
/// The layer itself only describes: each GL context (a snapshotter's worker) that draws it asks
/// it once for a `CustomLayerRenderer` (`onAdd`), which owns that context's programs and buffers
/// and is used by that context's thread alone. The layer is shared by the workers, so it is
/// `Sendable`.
public protocol CustomLayer: Sendable {
    var renderingMode: CustomLayerRenderingMode { get }
    /// GL JS's `onAdd`: makes the GL objects for `context` (current on the calling thread).
    /// A throw is reported as the snapshot's error, naming the layer.
    func makeRenderer(context: GLContext) throws -> any CustomLayerRenderer
}

/// One GL context's part of a custom layer (made by `CustomLayer.makeRenderer`).
///
/// Draw through GLSnapGL (`Program`, `VertexBuffer`, `IndexBuffer`, `GLContext.setAttribute`,
/// `Program.draw(_:modes:)` with `CustomLayerParameters.modes`, or modes of your own): whatever
/// state the callback leaves, the layers after it are drawn with their own, on the map's
/// framebuffer.
public protocol CustomLayerRenderer: AnyObject {
    /// GL JS's `prerender`: called before the frame's layers are drawn, for work into targets of
    /// its own. Default: nothing.
    func prerender(_ parameters: CustomLayerParameters) throws
    /// GL JS's `render`: draws the layer into the bound framebuffer.
    func render(_ parameters: CustomLayerParameters) throws
    /// GL JS's `onRemove`: called on the context's thread at the first frame that context draws
    /// without the layer (removed, or another style drawn). Default: nothing (the GL objects go
    /// with the renderer).
    func onRemove(context: GLContext)
}

extension CustomLayerRenderer {
    public func prerender(_ parameters: CustomLayerParameters) throws {}
    public func onRemove(context: GLContext) {}
}

/// What a custom layer's callbacks get: GL JS's `CustomRenderMethodInput` on a flat map.
public struct CustomLayerParameters {
    public let context: GLContext
    /// From Mercator coordinates (x, y in 0...1 across the world from the north-west corner; z in
    /// the same units, GL JS's `MercatorCoordinate`) to clip space: GL JS's
    /// `defaultProjectionData.mainMatrix` (`modelViewProjectionMatrix`). Column-major. When the
    /// image is drawn in pieces, each piece's.
    public let matrix: [Float]
    /// The camera of the whole image.
    public let transform: Transform
    /// The framebuffer's size in pixels (the piece's when drawn in pieces).
    public let width: Int
    public let height: Int
    /// The state GL JS sets before `render`: premultiplied-alpha blending, no stencil, and in
    /// `.threeD` mode the depth test (less-or-equal, writing) on the depth buffer the fill
    /// extrusions use; in `.flat` mode no depth test.
    public let modes: DrawModes
}

/// A custom layer in a frame: drawn before `frame.layers[position]` (after the last layer when
/// `position == frame.layers.count`).
public struct FrameCustomLayer {
    public var id: String
    public var layer: any CustomLayer
    /// Tells this addition of the layer apart from any other (a layer removed and added again is
    /// given a new renderer).
    public var key: Int
    public var position: Int
    public init(id: String, layer: any CustomLayer, key: Int, position: Int) {
        self.id = id; self.layer = layer; self.key = key; self.position = position
    }
}

/// A custom layer's callback failed: `stage` is "onAdd", "prerender" or "render".
public struct CustomLayerError: Error, CustomStringConvertible {
    public var layer: String
    public var stage: String
    public var underlying: any Error
    public var description: String { "custom layer \"\(layer)\": \(stage) failed: \(underlying)" }
}
