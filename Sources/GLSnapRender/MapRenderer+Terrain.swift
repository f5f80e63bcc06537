import Foundation
import GLSnapGL
import GLSnapLayout
import GLSnapStyle

extension MapRenderer {
    /// Draws a frame over 3D terrain. Each run of consecutive draped layers (`TerrainFrame.isDraped`)
    /// is drawn flat into every surface tile's texture, and each tile's mesh is drawn with it,
    /// depth-tested so nearer slopes hide farther ones; the other layers are drawn between the
    /// runs: circles, heatmaps and extrusions raised to the ground under each point or feature,
    /// symbols as over a flat map whose ground is at the center's elevation.
    func drawOverTerrain(_ frame: Frame, _ terrain: TerrainFrame, framebuffer fb: Framebuffer) throws {
        let meshes = terrain.tiles.map { t in
            (VertexBuffer(context: context, data: t.vertices), IndexBuffer(context: context, indices: t.indices))
        }
        var flat = frame
        flat.transform = frame.transform.elevated(0)
        flat.terrain = nil
        var painter = Painter(renderer: self, frame: flat, framebuffer: fb)
        // Circles, heatmaps and extrusions read the ground's height per vertex, under the view's own camera.
        var raised = Painter(renderer: self, frame: frame, framebuffer: fb)
        var pacer = frame.deadline.map { DeadlinePacer(deadline: $0) }
        var i = 0
        while i < frame.layers.count {
            try pacer?.beforeLayer { context.finish() }
            guard TerrainFrame.isDraped(frame.layers[i].layer.type) else {
                if Painter.isRaisedOntoTerrain(frame.layers[i].layer.type) {
                    try raised.draw(frame.layers[i])
                } else {
                    try painter.draw(frame.layers[i])
                }
                i += 1
                continue
            }
            var end = i
            while end < frame.layers.count, TerrainFrame.isDraped(frame.layers[end].layer.type) { end += 1 }
            try drape(Array(frame.layers[i..<end]), frame: frame, terrain: terrain, meshes: meshes, framebuffer: fb)
            i = end
        }
    }

    /// The target a surface tile's draped layers are drawn into (one, reused).
    private func drapeTarget(size: Int) throws -> LayerTarget {
        if let t = terrainTarget, t.texture.width == size { return t }
        terrainTarget = nil
        let t = try LayerTarget(context: context, width: size, height: size)
        terrainTarget = t
        return t
    }

    /// One run of draped layers: per surface tile, the layers drawn into the tile's texture, then
    /// the tile's mesh drawn with it onto the frame.
    private func drape(_ layers: [FrameLayer], frame: Frame, terrain: TerrainFrame,
                       meshes: [(VertexBuffer, IndexBuffer)], framebuffer fb: Framebuffer) throws {
        let target = try drapeTarget(size: terrain.textureSize)
        let program = try programs.program(TerrainProgram.self)
        let location = ProgramSet.location("a_pos", in: .terrain)
        let fog = terrain.fog
        for (k, t) in terrain.tiles.enumerated() {
            target.bindAndClear()
            var painter = Painter(renderer: self, frame: MapRenderer.drapeFrame(frame, tile: t.tile, size: terrain.textureSize),
                                  framebuffer: target)
            for layer in layers { try painter.draw(layer) }
            fb.bind()
            context.use(program.program)
            context.bind(target.texture, unit: 0, sampler: .linear)
            let u = program.uniforms
            u.texture.set(unit: 0)
            u.matrix.set(frame.pieceMatrix(frame.transform.tileMatrix(for: t.tile.id, wrap: t.tile.wrap)))
            u.fogMatrix.set(frame.transform.fogMatrix(for: t.tile.id, wrap: t.tile.wrap))
            u.fogColor.set(Float(fog.fogColor.r), Float(fog.fogColor.g), Float(fog.fogColor.b), Float(fog.fogColor.a))
            u.horizonColor.set(Float(fog.horizonColor.r), Float(fog.horizonColor.g), Float(fog.horizonColor.b), Float(fog.horizonColor.a))
            u.fogGroundBlend.set(Float(fog.fogGroundBlend))
            u.fogGroundBlendOpacity.set(Float(fog.opacity))
            u.horizonFogBlend.set(Float(fog.horizonFogBlend))
            context.setAttribute(VertexAttribute(location: location, components: 3, type: .float), meshes[k].0)
            program.program.draw(indices: meshes[k].1,
                                 modes: DrawModes(depth: DepthMode(function: .lessOrEqual, writes: true), color: .alphaBlended))
        }
    }

    /// The frame that draws the layers of a surface tile flat into its texture: a camera straight
    /// down on the tile at the view's zoom, so widths and sizes in pixels are those of the view,
    /// the tile filling the `size`² texture.
    static func drapeFrame(_ frame: Frame, tile: CoveredTile, size: Int) -> Frame {
        let z = Double(tile.id.z), n = pow(2, z)
        let side = Transform.tileSize * pow(2, frame.transform.zoom - z)
        let x = (Double(tile.id.x) + 0.5) / n + Double(tile.wrap), y = (Double(tile.id.y) + 0.5) / n
        let camera = Transform(width: side, height: side, center: (Mercator.lon(x: x), Mercator.lat(y: y)), zoom: frame.transform.zoom)
        var out = frame
        out.transform = camera
        out.pixelRatio = Double(size) / side
        out.imageWidth = size
        out.imageHeight = size
        out.piece = PixelRect(x: 0, y: 0, width: size, height: size)
        out.terrain = nil
        return out
    }
}
