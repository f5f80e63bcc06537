import Foundation
import GLSnapData
import GLSnapImage
import GLSnapLayout
import GLSnapStyle

/// A style's glyphs, sprites and SVG icons for symbol layout, with the atlases they are packed
/// into. One per loaded style, shared by its snapshots; thread-safe. (The per-tile symbol layouts
/// that point into the atlases are cached by the snapshotter, within a byte budget.)
final class SymbolResources: SymbolResourceProvider, @unchecked Sendable {
    let glyphAtlas = SymbolAtlas(bytesPerPixel: 1)
    let iconAtlas = SymbolAtlas(bytesPerPixel: 4)
    private let glyphStore: GlyphStore
    private let resolver: ResourceResolver
    /// (id prefix, URL) of each sprite; a URL ending in "/" names a folder of SVG files.
    private let sprites: [(id: String, url: String)]
    private let lock = NSLock()
    private var glyphSlots: [GlyphKey: GlyphSlot?] = [:]
    private var iconSlots: [IconKey: IconSlot?] = [:]
    private var sheets: [String: (image: RGBAImage, index: [String: SpriteEntry])?] = [:]
    private var svgs: [String: [UInt8]?] = [:]
    /// SVG icons refused whatever the scale (over `SVGRasterizer.Limits`): not tried again.
    private var refusedSVGs: Set<String> = []
    private var localFallbackWarned: Set<String> = []
    private var warningList: [String] = []
    private let rasterizer: SVGRasterizer
    /// Glyphs from installed fonts, for ranges the glyph URL does not have.
    private let localGlyphs = LocalGlyphRasterizer()

    struct GlyphKey: Hashable { var fonts: [String]; var codepoint: UInt32 }
    struct IconKey: Hashable { var name: String; var params: [String: Color]; var scale: Double; var hiDPI: Bool }

    /// Images added at run time (`Snapshotter.addImage`); they hide sprite images of the same name.
    private let addedImages: [String: StyleImage]

    init(style: Style, resolver: ResourceResolver, images: [String: StyleImage] = [:],
         svgLimits: SVGRasterizer.Limits = SVGRasterizer.Limits()) {
        self.resolver = resolver
        rasterizer = SVGRasterizer(limits: svgLimits)
        addedImages = images
        glyphStore = GlyphStore(template: style.glyphs, resolver: resolver)
        switch style.sprite {
        case .string(let url)?: sprites = [("default", url)]
        case .array(let items)?:
            sprites = items.compactMap { item in
                guard let id = item["id"]?.stringValue, let url = item["url"]?.stringValue else { return nil }
                return (id, url)
            }
        default: sprites = []
        }
    }

    /// Resources that could not be used at all (a sprite that cannot be loaded, a glyph range
    /// that cannot be read), also listed in `warnings`: errors under `SourceErrorPolicy.fail`.
    private(set) var failures: [String] = []

    func warn(_ message: String) {
        lock.lock(); defer { lock.unlock() }
        if warningList.count < 1000 && !warningList.contains(message) { warningList.append(message) }
    }

    /// Everything warned about so far (missing or refused icons, a full atlas), each once, in order.
    var warnings: [String] {
        lock.lock(); defer { lock.unlock() }
        return warningList
    }

    /// A resource the style names could not be used: a warning, and an error with `--strict`.
    func fail(_ message: String) {
        lock.lock(); defer { lock.unlock() }
        guard warningList.count < 1000, !warningList.contains(message) else { return }
        warningList.append(message)
        failures.append(message)
    }

    /// Where the problem lists stand now, for `problems(since:)`.
    struct Mark { var warnings: Int; var failures: Int }

    func mark() -> Mark {
        collectGlyphProblems()
        lock.lock(); defer { lock.unlock() }
        return Mark(warnings: warningList.count, failures: failures.count)
    }

    /// The problems met since `mark` (each is reported once, by the snapshot that met it: the
    /// resources are cached, so later snapshots do without them silently).
    func problems(since mark: Mark) -> (warnings: [String], failures: [String]) {
        collectGlyphProblems()
        lock.lock(); defer { lock.unlock() }
        return (Array(warningList.dropFirst(mark.warnings)), Array(failures.dropFirst(mark.failures)))
    }

    /// Glyph ranges that could not be read (the glyph store keeps them) become failures here.
    private var glyphProblemsSeen = 0
    private func collectGlyphProblems() {
        let found = glyphStore.warnings
        lock.lock()
        let new = found.dropFirst(glyphProblemsSeen)
        glyphProblemsSeen = found.count
        lock.unlock()
        new.forEach { fail("glyphs: \($0)") }
    }

    // MARK: - Glyphs

    func glyph(fonts: [String], codepoint: UInt32) -> GlyphSlot? {
        let key = GlyphKey(fonts: fonts, codepoint: codepoint)
        lock.lock()
        if let s = glyphSlots[key] { lock.unlock(); return s }
        lock.unlock()
        var slot: GlyphSlot?
        if let g = glyphStore.glyph(fonts: fonts, codepoint: codepoint) {
            var rect: AtlasRect?
            if !g.bitmap.isEmpty {
                let b = Glyph.border * 2
                rect = glyphAtlas.add(g.bitmap, w: g.width + b, h: g.height + b, padding: 1)
                if rect == nil { warn("the glyph atlas is full; some glyphs are not drawn") }
            }
            slot = GlyphSlot(left: Double(g.left), top: Double(g.top), width: Double(g.width), height: Double(g.height),
                             advance: Double(g.advance), rect: rect)
        } else if !glyphStore.hasRange(fonts: fonts, codepoint: codepoint),
                  let g = localGlyphs.glyph(font: fonts.first ?? "sans-serif", codepoint: codepoint) {
            // The glyph server lacks this range (or the style has no glyphs URL): draw it from a local font.
            var rect: AtlasRect?
            if !g.sdf.isEmpty {
                let b = LocalGlyphRasterizer.border * 2
                rect = glyphAtlas.add(g.sdf, w: g.width + b, h: g.height + b, padding: 1)
                if rect == nil { warn("the glyph atlas is full; some glyphs are not drawn") }
            }
            slot = GlyphSlot(left: Double(g.left), top: Double(g.top), width: Double(g.width), height: Double(g.height),
                             advance: Double(g.advance), rect: rect)
            lock.lock()
            let first = localFallbackWarned.insert(fonts.joined(separator: ",")).inserted
            lock.unlock()
            if first {
                warn("glyphs for '\(fonts.joined(separator: ","))' are missing from the style's glyph URL; drawn from local fonts")
            }
        }
        lock.lock(); defer { lock.unlock() }
        if let s = glyphSlots[key] { return s }  // another thread added it meanwhile
        glyphSlots[key] = slot
        return slot
    }

    // MARK: - Icons

    func icon(name: String, params: [String: Color], iconSize: Double, pixelRatio: Double) -> IconSlot? {
        if let added = addedImages[name] { return addedIcon(name, added) }
        var spriteID = "default", imageName = name
        if let colon = name.firstIndex(of: ":"), sprites.contains(where: { $0.id == String(name[..<colon]) }) {
            spriteID = String(name[..<colon]); imageName = String(name[name.index(after: colon)...])
        }
        guard let sprite = sprites.first(where: { $0.id == spriteID }) else {
            warn("image '\(name)' is not in the style's sprites"); return nil
        }
        let isSVG = sprite.url.hasSuffix("/")
        let scale = isSVG ? (pixelRatio * iconSize * 1000).rounded() / 1000 : 1
        let key = IconKey(name: name, params: isSVG ? params : [:], scale: scale, hiDPI: pixelRatio >= 2)
        lock.lock()
        if let s = iconSlots[key] { lock.unlock(); return s }
        lock.unlock()
        let slot = isSVG ? svgIcon(imageName, folder: sprite.url, params: params, scale: scale, pixelRatio: pixelRatio, iconSize: iconSize)
            : spriteIcon(imageName, url: sprite.url, hiDPI: pixelRatio >= 2)
        lock.lock(); defer { lock.unlock() }
        if let s = iconSlots[key] { return s }
        iconSlots[key] = slot
        return slot
    }

    /// Sprite image names (`id:name` outside the `default` sprite) and added images, per
    /// hiDPI sheet; nil with a folder of SVG icons, whose names are not listed.
    private var imageNames: [Bool: Set<String>?] = [:]

    func availableImages(pixelRatio: Double) -> Set<String>? {
        let hiDPI = pixelRatio >= 2
        lock.lock()
        if let names = imageNames[hiDPI] { lock.unlock(); return names }
        lock.unlock()
        var names: Set<String>? = Set(addedImages.keys)
        for sprite in sprites {
            guard !sprite.url.hasSuffix("/") else { names = nil; break }
            let index = sheet(url: sprite.url, hiDPI: hiDPI)?.index ?? [:]
            for name in index.keys {
                names?.insert(sprite.id == "default" ? name : sprite.id + ":" + name)
            }
        }
        lock.lock(); defer { lock.unlock() }
        imageNames[hiDPI] = .some(names)
        return names
    }

    /// An image added with `Snapshotter.addImage`, packed on first use.
    private func addedIcon(_ name: String, _ image: StyleImage) -> IconSlot? {
        let key = IconKey(name: name, params: [:], scale: 1, hiDPI: false)
        lock.lock()
        if let s = iconSlots[key] { lock.unlock(); return s }
        lock.unlock()
        let source = image.image
        var pixels = [UInt8](repeating: 0, count: source.width * source.height * 4)
        for i in stride(from: 0, to: min(pixels.count, source.pixels.count - 3), by: 4) {
            if image.sdf { sdfTexel(source.pixels, i, &pixels, i) } else { premultiply(source.pixels, i, &pixels, i) }
        }
        var slot: IconSlot?
        if let r = iconAtlas.add(pixels, w: source.width, h: source.height, padding: 1) {
            var entry = SpriteEntry(x: 0, y: 0, width: source.width, height: source.height, pixelRatio: image.pixelRatio,
                                    sdf: image.sdf, stretchX: image.stretchX, stretchY: image.stretchY, content: image.content)
            for problem in entry.validateStretch() { warn("image '\(name)': \(problem)") }
            slot = IconSlot(rect: AtlasRect(x: r.x + 1, y: r.y + 1, w: source.width, h: source.height),
                            pixelRatio: image.pixelRatio, sdf: image.sdf, stretchX: entry.stretchX, stretchY: entry.stretchY,
                            content: entry.content, textFitWidth: image.textFitWidth, textFitHeight: image.textFitHeight)
        } else {
            warn("the icon atlas is full; image '\(name)' is not drawn")
        }
        lock.lock(); defer { lock.unlock() }
        if let s = iconSlots[key] { return s }
        iconSlots[key] = slot
        return slot
    }

    private func spriteIcon(_ name: String, url: String, hiDPI: Bool) -> IconSlot? {
        guard let sheet = sheet(url: url, hiDPI: hiDPI) else { return nil }
        guard let e = sheet.index[name] else { warn("image '\(name)' is not in sprite '\(url)'"); return nil }
        var pixels = [UInt8](repeating: 0, count: e.width * e.height * 4)
        for y in 0..<e.height {
            for x in 0..<e.width {
                let s = ((e.y + y) * sheet.image.width + e.x + x) * 4, d = (y * e.width + x) * 4
                if e.sdf { sdfTexel(sheet.image.pixels, s, &pixels, d) } else { premultiply(sheet.image.pixels, s, &pixels, d) }
            }
        }
        guard let r = iconAtlas.add(pixels, w: e.width, h: e.height, padding: 1) else {
            warn("the icon atlas is full; image '\(name)' is not drawn"); return nil
        }
        return IconSlot(rect: AtlasRect(x: r.x + 1, y: r.y + 1, w: e.width, h: e.height), pixelRatio: e.pixelRatio, sdf: e.sdf,
                        stretchX: e.stretchX, stretchY: e.stretchY, content: e.content,
                        textFitWidth: e.textFitWidth, textFitHeight: e.textFitHeight)
    }

    private func sheet(url: String, hiDPI: Bool) -> (image: RGBAImage, index: [String: SpriteEntry])? {
        let key = url + (hiDPI ? "@2x" : "")
        lock.lock()
        if let s = sheets[key] { lock.unlock(); return s }
        lock.unlock()
        var result: (RGBAImage, [String: SpriteEntry])?
        do {
            var (base, query) = (url, "")
            if let q = url.firstIndex(of: "?") { base = String(url[..<q]); query = String(url[q...]) }
            // A query (an access token) stays on remote URLs, after the suffix; files have none.
            if case .file = try resolver.location(for: base) { query = "" }
            let suffix = hiDPI ? "@2x" : ""
            let image = try PNGDecoder().decode(try resolver.load(base + suffix + ".png" + query))
            var problems: [String] = []
            let index = try SpriteIndex.parse(try resolver.load(base + suffix + ".json" + query), url: base + suffix + ".json",
                                              sheetWidth: image.width, sheetHeight: image.height, problems: &problems)
            problems.prefix(20).forEach(warn)
            result = (image, index)
        } catch {
            fail("sprite '\(url)' could not be loaded: \(error)")
        }
        lock.lock(); defer { lock.unlock() }
        sheets[key] = .some(result)
        return result
    }

    private func svgIcon(_ name: String, folder: String, params: [String: Color], scale: Double, pixelRatio: Double, iconSize: Double) -> IconSlot? {
        lock.lock()
        let cached = svgs[name], refused = refusedSVGs.contains(name)
        lock.unlock()
        if refused { return nil }
        var source: [UInt8]?
        if let cached { source = cached } else {
            do { source = try resolver.loadIfPresent(folder + name + ".svg") } catch { warn("SVG icon '\(name)': \(error)") }
            if source == nil { warn("image '\(name)' is not in the SVG folder '\(folder)'") }
            lock.lock(); svgs[name] = .some(source); lock.unlock()
        }
        guard var svg = source else { return nil }
        if !params.isEmpty {
            svg = SVGParameters.apply(params.mapValues(SymbolResources.css), to: svg)
        }
        do {
            let image = try rasterizer.rasterize(svg, name: name, scale: scale)
            var pixels = [UInt8](repeating: 0, count: image.pixels.count)
            for i in stride(from: 0, to: pixels.count, by: 4) { premultiply(image.pixels, i, &pixels, i) }
            guard let r = iconAtlas.add(pixels, w: image.width, h: image.height, padding: 1) else {
                warn("the icon atlas is full; image '\(name)' is not drawn"); return nil
            }
            return IconSlot(rect: AtlasRect(x: r.x + 1, y: r.y + 1, w: image.width, h: image.height),
                            pixelRatio: pixelRatio, baseScale: scale / pixelRatio, sdf: false)
        } catch ImageError.svgRefused(let icon, let reason) {
            // Over a limit at any scale (or too slow): left out, and not rasterized again.
            lock.lock(); refusedSVGs.insert(name); lock.unlock()
            warn("\(ImageError.svgRefused(name: icon, reason: reason))")
            return nil
        } catch {
            warn("\(error)")
            return nil
        }
    }

    /// An SDF icon's distance is its alpha; the SDF shader reads the first channel (glyphs are
    /// one-channel), so every channel gets the alpha.
    private func sdfTexel(_ src: [UInt8], _ s: Int, _ dst: inout [UInt8], _ d: Int) {
        let a = src[s + 3]
        dst[d] = a; dst[d + 1] = a; dst[d + 2] = a; dst[d + 3] = a
    }

    private func premultiply(_ src: [UInt8], _ s: Int, _ dst: inout [UInt8], _ d: Int) {
        let a = UInt32(src[s + 3])
        dst[d] = UInt8((UInt32(src[s]) * a + 127) / 255)
        dst[d + 1] = UInt8((UInt32(src[s + 1]) * a + 127) / 255)
        dst[d + 2] = UInt8((UInt32(src[s + 2]) * a + 127) / 255)
        dst[d + 3] = UInt8(a)
    }

    /// A color as CSS for an SVG paint.
    static func css(_ c: Color) -> String {
        let u = c.unpremultiplied
        func hex(_ v: Double) -> String {
            let n = Int((min(max(v, 0), 1) * 255).rounded())
            return (n < 16 ? "0" : "") + String(n, radix: 16)
        }
        let rgb = "#" + hex(u.r) + hex(u.g) + hex(u.b)
        return u.a >= 1 ? rgb : "rgba(\(Int((u.r * 255).rounded())),\(Int((u.g * 255).rounded())),\(Int((u.b * 255).rounded())),\(u.a))"
    }
}
