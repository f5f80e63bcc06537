import Foundation
import XCTest
@testable import GLSnap
import GLSnapGL
import GLSnapImage
import GLSnapRender

/// Custom layers (`CustomLayer`, MapLibre's CustomLayerInterface): drawn in style order through
/// the map's GL context, the map's state back for the layers after them, the depth buffer shared
/// in "3d" mode, failures named by layer.
final class CustomLayerTests: XCTestCase {
    /// What the test layers' callbacks did, in order.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [String] = []
        func add(_ e: String) { lock.lock(); events.append(e); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return events }
    }

    /// A rectangle of Mercator coordinates (x0, y0, x1, y1; 0...1 across the world) at height
    /// `z`, in one opaque colour. `fail` makes that stage throw; `leaveTargetBound` draws the
    /// rectangle into a target of its own first and leaves that target bound, with odd modes.
    struct Quad: CustomLayer {
        var rect: (Float, Float, Float, Float) = (0.4, 0.4, 0.6, 0.6)
        var z: Float = 0
        var color: (Float, Float, Float) = (1, 0, 0)
        var renderingMode: CustomLayerRenderingMode = .flat
        var fail: String?
        var leaveTargetBound = false
        var log: Log?

        struct Failure: Error, CustomStringConvertible { var description: String { "the test's failure" } }

        func makeRenderer(context: GLContext) throws -> any CustomLayerRenderer {
            log?.add("onAdd")
            if fail == "onAdd" { throw Failure() }
            let vertex = """
                #version 330 core
                in vec3 a_pos;
                uniform mat4 u_matrix;
                void main() { gl_Position = u_matrix * vec4(a_pos, 1.0); }
                """
            let fragment = """
                #version 330 core
                uniform vec4 u_color;
                out vec4 fragColor;
                void main() { fragColor = u_color; }
                """
            let program = try Program(context: context, name: "quad", vertex: vertex, fragment: fragment, attributes: ["a_pos"])
            let (x0, y0, x1, y1) = rect
            let corners = VertexBuffer(context: context, data: [Float]([x0, y0, z, x1, y0, z, x1, y1, z, x0, y1, z]))
            return Renderer(layer: self, program: program, corners: corners, indices: IndexBuffer(context: context, indices: [0, 1, 2, 0, 2, 3]),
                            target: leaveTargetBound ? try RenderTarget(context: context, width: 16, height: 16) : nil)
        }

        final class Renderer: CustomLayerRenderer {
            let layer: Quad, program: Program, corners: VertexBuffer, indices: IndexBuffer, target: RenderTarget?
            init(layer: Quad, program: Program, corners: VertexBuffer, indices: IndexBuffer, target: RenderTarget?) {
                self.layer = layer; self.program = program; self.corners = corners; self.indices = indices; self.target = target
            }

            func prerender(_ p: CustomLayerParameters) throws {
                layer.log?.add("prerender")
                if layer.fail == "prerender" { throw Failure() }
            }

            func render(_ p: CustomLayerParameters) throws {
                layer.log?.add("render")
                if layer.fail == "render" { throw Failure() }
                p.context.use(program)
                p.context.setAttribute(VertexAttribute(location: 0, components: 3, type: .float), corners)
                UniformMat4(program, "u_matrix").set(p.matrix)
                let (r, g, b) = layer.color
                UniformVec4(program, "u_color").set(r, g, b, 1)
                program.draw(indices: indices, modes: p.modes)
                if let target {
                    // Left bound for the layers after this one, with modes no map layer uses.
                    target.bindAndClear()
                    program.draw(indices: indices, modes: DrawModes(depth: DepthMode(function: .always, writes: true),
                                                                    stencil: StencilMode(function: .always, reference: 9, writeMask: 0xFF, pass: .replace),
                                                                    scissor: ScissorBox(x: 0, y: 0, width: 2, height: 2),
                                                                    color: .additive, cull: CullMode(face: .front)))
                }
            }

            func onRemove(context: GLContext) { layer.log?.add("onRemove") }
        }
    }

    /// White, then "under" (blue, longitudes -20...0) and "over" (green, 0...20), latitudes -15...15.
    static let style = """
        {"version": 8, "center": [0, 0], "zoom": 1,
         "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
           {"type": "Feature", "properties": {"side": "w"}, "geometry": {"type": "Polygon", "coordinates": [[[-20, -15], [0, -15], [0, 15], [-20, 15], [-20, -15]]]}},
           {"type": "Feature", "properties": {"side": "e"}, "geometry": {"type": "Polygon", "coordinates": [[[0, -15], [20, -15], [20, 15], [0, 15], [0, -15]]]}}]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "under", "type": "fill", "source": "s", "filter": ["==", "side", "w"], "paint": {"fill-color": "blue", "fill-antialias": false}},
                    {"id": "over", "type": "fill", "source": "s", "filter": ["==", "side", "e"], "paint": {"fill-color": "green", "fill-antialias": false}}]}
        """

    private func snapshotter(_ style: String = CustomLayerTests.style, size: Int = 128) throws -> Snapshotter {
        let s = Snapshotter(options: MapSnapshotOptions(size: Size(width: Double(size), height: Double(size))))
        try s.setStyle(json: style)
        return s
    }

    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 4
        return Array(image.pixels[i..<(i + 4)])
    }

    // x 32 is in "under" (11° west), x 96 in "over", y 4 above both (21° north); a degree is 2.8 px.
    func testDrawnInStyleOrderBetweenTheNeighbouringLayers() throws {
        let s = try snapshotter()
        try s.addCustomLayer(Quad(), id: "quad", before: "over")
        let image = try s.snapshot().image
        XCTAssertEqual(pixel(image, 32, 64), [255, 0, 0, 255], "over the layer below it")
        XCTAssertEqual(pixel(image, 96, 64), [0, 128, 0, 255], "under the layer above it")
        XCTAssertEqual(pixel(image, 64, 4), [255, 0, 0, 255], "over the background")
        XCTAssertEqual(s.customLayerIds, ["quad"])

        let top = try snapshotter()
        try top.addCustomLayer(Quad(), id: "quad")
        XCTAssertEqual(pixel(try top.snapshot().image, 96, 64), [255, 0, 0, 255], "on top without before")
    }

    func testBeforeAnotherCustomLayerAndOrderOfCallbacks() throws {
        let s = try snapshotter()
        let log = Log()
        try s.addCustomLayer(Quad(color: (0, 0, 1), log: log), id: "blue")
        try s.addCustomLayer(Quad(rect: (0.45, 0.45, 0.55, 0.55), log: log), id: "red", before: "blue")
        XCTAssertEqual(s.customLayerIds, ["red", "blue"])
        let image = try s.snapshot().image
        XCTAssertEqual(pixel(image, 64, 64), [0, 0, 255, 255], "the blue one drawn over the red one below it")
        XCTAssertEqual(log.all, ["onAdd", "prerender", "onAdd", "prerender", "render", "render"])
        try s.removeLayer("red")
        XCTAssertEqual(s.customLayerIds, ["blue"])
        _ = try s.snapshot()
        XCTAssertEqual(Array(log.all.suffix(3)), ["prerender", "render", "onRemove"], "onRemove at the next frame without it")
    }

    /// A custom layer that leaves its own target bound and odd depth, stencil, scissor, blend and
    /// cull state: the layers after it are drawn as without it, on the map.
    func testTheMapStateIsBackForTheLayersAfterIt() throws {
        // Turned, so the fills are clipped by stencil masks, and with an extrusion (depth).
        let style = CustomLayerTests.style.replacingOccurrences(of: #""zoom": 1,"#, with: #""zoom": 1, "bearing": 30, "pitch": 20,"#)
            .replacingOccurrences(of: "]}]}", with: #"]}, {"id": "box", "type": "fill-extrusion", "source": "s", "paint": {"fill-extrusion-color": "purple", "fill-extrusion-height": 300000}}]}"#)
        let plain = try snapshotter(style).snapshot().image
        let s = try snapshotter(style)
        // Drawn where nothing else is (far west, out of view), before every layer but the background.
        try s.addCustomLayer(Quad(rect: (0.01, 0.5, 0.02, 0.51), leaveTargetBound: true), id: "odd", before: "under")
        let image = try s.snapshot().image
        XCTAssertEqual(differing(image, plain), 0, "pixels that differ")
    }

    private func differing(_ a: RGBAImage, _ b: RGBAImage) -> Int {
        zip(a.pixels, b.pixels).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
    }

    /// In "3d" mode the depth buffer is shared with the extrusions drawn before: a quad on the
    /// ground under a tall box is hidden where the box's roof is; in "2d" it covers the roof.
    func testThreeDModeIsDepthTestedAgainstExtrusions() throws {
        let style = CustomLayerTests.style.replacingOccurrences(of: #""type": "fill", "source": "s", "filter": ["==", "side", "e"], "paint": {"fill-color": "green", "fill-antialias": false}"#,
                                                                 with: #""type": "fill-extrusion", "source": "s", "filter": ["==", "side", "e"], "paint": {"fill-extrusion-color": "green", "fill-extrusion-height": 1000000}"#)
        let threeD = try snapshotter(style)
        try threeD.addCustomLayer(Quad(renderingMode: .threeD), id: "quad")
        let flat = try snapshotter(style)
        try flat.addCustomLayer(Quad(renderingMode: .flat), id: "quad")
        let a = try threeD.snapshot().image, b = try flat.snapshot().image
        XCTAssertEqual(pixel(a, 32, 64), [255, 0, 0, 255])
        XCTAssertNotEqual(Array(pixel(a, 96, 64).prefix(3)), [255, 0, 0], "behind the roof: hidden")
        XCTAssertEqual(pixel(b, 96, 64), [255, 0, 0, 255], "2d: over the roof")
    }

    func testAFailingCallbackIsAnErrorNamingTheLayer() throws {
        for stage in ["onAdd", "prerender", "render"] {
            let s = try snapshotter()
            try s.addCustomLayer(Quad(fail: stage), id: "boom")
            XCTAssertThrowsError(try s.snapshot()) { error in
                XCTAssertTrue("\(error)".contains("custom layer \"boom\": \(stage) failed: the test's failure"), "\(error)")
            }
            // The layer removed, the snapshotter draws on.
            try s.removeLayer("boom")
            XCTAssertEqual(pixel(try s.snapshot().image, 32, 64), [0, 0, 255, 255])
        }
    }

    func testIdsAndBeforeAreChecked() throws {
        let s = try snapshotter()
        XCTAssertThrowsError(try s.addCustomLayer(Quad(), id: "over")) { XCTAssertTrue("\($0)".contains("\"over\" already exists"), "\($0)") }
        try s.addCustomLayer(Quad(), id: "quad")
        XCTAssertThrowsError(try s.addCustomLayer(Quad(), id: "quad")) { XCTAssertTrue("\($0)".contains("\"quad\" already exists"), "\($0)") }
        XCTAssertThrowsError(try s.addCustomLayer(Quad(), id: "q2", before: "nope")) { XCTAssertTrue("\($0)".contains("\"nope\": no such layer"), "\($0)") }
        XCTAssertEqual(s.customLayerIds, ["quad"])
        XCTAssertFalse(s.removeCustomLayer("nope"))
        XCTAssertThrowsError(try s.removeLayer("nope"))
    }

    func testOverTerrainItIsLeftOutWithAWarning() throws {
        let dem = FileManager.default.temporaryDirectory.appendingPathComponent("custom-dem-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dem, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dem) }
        // A flat DEM tile (mapbox encoding: 0 m is rgb(1, 134, 160)).
        let tile = RGBAImage(width: 4, height: 4, pixels: Array([[UInt8]](repeating: [1, 134, 160, 255], count: 16).joined()))
        try Data(try PNGEncoder().encode(tile)).write(to: dem.appendingPathComponent("0-0-0.png"))
        let terrain = #""terrain": {"source": "dem"}, "sources": {"dem": {"type": "raster-dem", "tiles": ["file://DIR/{z}-{x}-{y}.png"], "maxzoom": 0, "tileSize": 256},"#
        let style = CustomLayerTests.style.replacingOccurrences(of: #""sources": {"#, with: terrain.replacingOccurrences(of: "DIR", with: dem.path))
        let s = try snapshotter(style)
        try s.addCustomLayer(Quad(), id: "quad")
        let snapshot = try s.snapshot()
        XCTAssertTrue(snapshot.warnings.contains(#"custom layer "quad" is not drawn: custom layers are not drawn over terrain yet"#), "\(snapshot.warnings)")
        XCTAssertNotEqual(pixel(snapshot.image, 64, 4), [255, 0, 0, 255])
    }

    /// Drawn in pieces, the layer gets each piece's matrix: the stitched image equals the whole one.
    func testPiecesGetTheirOwnMatrix() throws {
        var options = MapSnapshotOptions(size: Size(width: 128, height: 128))
        let whole = try snapshotter()
        try whole.addCustomLayer(Quad(rect: (0.45, 0.47, 0.52, 0.55)), id: "quad")
        options.limits.pieceSize = 48
        let pieces = Snapshotter(options: options)
        try pieces.setStyle(json: CustomLayerTests.style)
        try pieces.addCustomLayer(Quad(rect: (0.45, 0.47, 0.52, 0.55)), id: "quad")
        XCTAssertEqual(differing(try pieces.snapshot().image, try whole.snapshot().image), 0, "pixels that differ")
    }
}
