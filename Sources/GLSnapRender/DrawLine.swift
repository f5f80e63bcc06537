import Foundation
import GLSnapGL
import GLSnapLayout
import GLSnapStyle

extension Painter {
    static func lineAttributes(_ line: LineLayer) -> [PaintAttribute] { [
        PaintAttribute(attribute: "a_color", property: line.color),
        PaintAttribute(attribute: "a_opacity", property: line.opacity),
        PaintAttribute(attribute: "a_width", property: line.width),
        PaintAttribute(attribute: "a_gapwidth", property: line.gapWidth),
        PaintAttribute(attribute: "a_offset", property: line.offset),
        PaintAttribute(attribute: "a_blur", property: line.blur),
        PaintAttribute(attribute: "a_floorwidth", property: line.width, integerZoom: true),
    ] }

    /// line: extruded triangles; line-dasharray through the dash atlas; line-pattern and
    /// line-gradient in DrawLinePattern.swift and DrawLineGradient.swift.
    mutating func drawLine(_ item: FrameLayer, _ line: LineLayer) throws {
        let layer = item.layer
        if line.pattern.isSet { return try drawLinePattern(item, line) }
        if line.gradient.isSet { return try drawLineGradient(item, line) }
        let (translate, anchor) = self.translate(line.translate, line.translateAnchor)
        let dashes = LineDashes(line, zoom: zoom, atlas: renderer.dashAtlas)
        let program = try renderer.programs.program(LineProgram.self, define: lineVariant(dashes?.define))
        let u = program.uniforms
        context.use(program.program)
        let t = frame.transform
        u.unitsToPixels.set(Float(1 / pixelsToClipUnits.x), Float(1 / pixelsToClipUnits.y))
        u.devicePixelRatio.set(Float(frame.pixelRatio))
        dashes?.bind(u, atlas: renderer.dashAtlas, context: context, unit: 0, pixelRatio: frame.pixelRatio)
        let attributes = Painter.lineAttributes(line)
        for tile in item.tiles {
            guard let box = tile.geometry, !box.geometry.isEmpty else { continue }
            let g = renderer.upload(box)
            guard let triangles = g.indices.first, triangles.count > 0 else { continue }
            u.matrix.set(matrix(for: tile.tile, translate: translate, anchor: anchor))
            let ratio = 1 / t.pixelsToTileUnits(tile.tile.id, 1)
            u.ratio.set(Float(ratio))
            setGlobeLine(u.globeLine, u.globeTile, tile: tile.tile.id)
            if let dashes {
                if dashes.entry == nil { bindFeatureDashes(dashes, line, layer: layer, geometry: g, box: box, uniforms: u) }
                dashes.bindTile(u, tileZoom: tile.tile.id.z, atlas: renderer.dashAtlas)
            }
            let paint = bindPaint(attributes, layer: layer, geometry: g, box: box)
            bindAttributes(.line, geometry: g, paint: paint)
            program.program.draw(indices: triangles.buffer, count: triangles.count,
                                 modes: DrawModes(clip: clip(for: tile.tile), color: .alphaBlended))
        }
    }

    /// Uploads the features' own dash patterns (`a_dash`) once per layer, style and zoom, and
    /// rebinds the atlas they were added to.
    private func bindFeatureDashes(_ dashes: LineDashes, _ line: LineLayer, layer: StyleLayer, geometry g: GPUGeometry,
                                   box: GeometryBox, uniforms u: LineProgram.Uniforms) {
        let key = PaintKey(layer: layer.id, property: line.dasharray.name, generation: frame.paintGeneration(layer.id),
                           zoom: dashes.zoom, components: 3)
        if g.paint["a_dash"]?.key != key {
            let values = dashes.featurePatterns(line, geometry: box.geometry, atlas: renderer.dashAtlas)
            g.paint["a_dash"] = (key, VertexBuffer(context: context, data: values))
        }
        renderer.dashAtlas.bind(context, unit: 0)
        u.dashAtlasHeight.set(Float(renderer.dashAtlas.height))
    }
}
