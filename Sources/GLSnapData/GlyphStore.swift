import Foundation

/// The glyphs a style's `glyphs` URL template gives, loaded lazily one 256-codepoint range per font
/// and cached. Thread-safe; one store per loaded style.
///
/// A fontstack ("Open Sans Bold,Arial Unicode MS Bold") is first asked for as a whole (what a glyph
/// server composes); when that range file does not exist each font is asked for alone, and a glyph
/// comes from the first font that has it.
public final class GlyphStore: @unchecked Sendable {
    public let template: String?
    private let resolver: ResourceResolver
    private var ranges: [String: [UInt32: [UInt32: Glyph]]] = [:]
    /// (font, range) pairs whose file was found and read.
    private var present: Set<String> = []
    private let lock = NSLock()
    /// Problems met while loading (missing files are not problems), for warnings.
    public private(set) var warnings: [String] = []

    public init(template: String?, resolver: ResourceResolver) {
        self.template = template
        self.resolver = resolver
    }

    /// The glyph for `codepoint` in the first font of `fonts` that has it.
    public func glyph(fonts: [String], codepoint: UInt32) -> Glyph? {
        let range = codepoint / 256
        let joined = fonts.joined(separator: ",")
        if let g = load(font: joined, range: range)[codepoint] { return g }
        guard fonts.count > 1 else { return nil }
        for font in fonts {
            if let g = load(font: font, range: range)[codepoint] { return g }
        }
        return nil
    }

    /// Whether any font of the stack (or the joined stack) has a range file for `codepoint`: when
    /// none has, the glyph is missing from the server rather than from the font, and a local font
    /// may stand in.
    public func hasRange(fonts: [String], codepoint: UInt32) -> Bool {
        let range = codepoint / 256
        _ = glyph(fonts: fonts, codepoint: codepoint)
        lock.lock(); defer { lock.unlock() }
        if present.contains("\(fonts.joined(separator: ","))/\(range)") { return true }
        return fonts.contains { present.contains("\($0)/\(range)") }
    }

    /// The glyphs of one range of one font (or joined fontstack), loaded on first use.
    func load(font: String, range: UInt32) -> [UInt32: Glyph] {
        lock.lock()
        if let r = ranges[font]?[range] { lock.unlock(); return r }
        lock.unlock()
        var glyphs: [UInt32: Glyph] = [:]
        if let template, range < 256 {
            let url = GlyphStore.url(template: template, fontstack: font, range: range)
            do {
                if let bytes = try resolver.loadIfPresent(url) {
                    for g in try GlyphPBF.parse(bytes, url: url) { glyphs[g.id] = g }
                    lock.lock(); present.insert("\(font)/\(range)"); lock.unlock()
                }
            } catch {
                lock.lock(); warnings.append("\(error)"); lock.unlock()
            }
        }
        lock.lock()
        ranges[font, default: [:]][range] = glyphs
        lock.unlock()
        return glyphs
    }

    /// The URL of one range: `{fontstack}` and `{range}` ("0-255") replaced; a query string is dropped
    /// for local files.
    public static func url(template: String, fontstack: String, range: UInt32) -> String {
        let start = range * 256
        // An HTTP server is asked for the fontstack percent-encoded ("Noto%20Sans%20Regular"), as MapLibre does.
        var stack = fontstack
        if HTTPClient.handles(template) {
            var allowed = CharacterSet.urlPathAllowed
            allowed.remove(charactersIn: "/?#%")
            stack = fontstack.addingPercentEncoding(withAllowedCharacters: allowed) ?? fontstack
        }
        var url = template.replacingOccurrences(of: "{fontstack}", with: stack)
            .replacingOccurrences(of: "{range}", with: "\(start)-\(start + 255)")
        if !url.contains("://") || url.hasPrefix("local://") || url.hasPrefix("file://"),
           let q = url.firstIndex(of: "?") {
            url = String(url[..<q])
        }
        return url
    }
}
