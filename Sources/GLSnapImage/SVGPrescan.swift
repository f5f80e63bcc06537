/// What an SVG document asks librsvg for, counted before librsvg sees it, so that a hostile icon
/// is refused in time proportional to its bytes instead of stalling a worker or exhausting memory.
///
/// librsvg 2.54 parses with libxml2 without `XML_PARSE_HUGE` (`RSVG_HANDLE_FLAG_UNLIMITED` is
/// off), so libxml2 caps a text node at 10 MB and nesting at 256 and catches a nested "billion
/// laughs"; but librsvg keeps the entity table itself, and one large entity referenced 30 000
/// times passed (13.5 GB). Its text layout is slow per character, `<use>` repeats whole subtrees,
/// and a `data:` image is decoded whole. The scan reads the document once, the way the parser
/// will see it: the DOCTYPE's internal-subset entities are collected and every reference to one
/// is expanded in place (so the counts are those after expansion, and the expansion itself stops
/// at `maxEntityExpansionBytes`). It counts elements, the characters inside `<text>`, `<tspan>`
/// and `<textPath>`, the pixels of each `data:` image from its PNG, JPEG, GIF or WebP header (a
/// nested SVG image is scanned in turn), what `<use>` repeats, and the filter primitives whose
/// cost grows with an attribute. Parameter entities, XInclude and SVGZ are refused outright. It
/// is not a validator: markup it cannot follow is left for libxml2 to refuse.
struct SVGPrescan {
    /// What a document adds up to.
    struct Totals: Equatable {
        var elements = 0
        var textCharacters = 0
        var entityBytes = 0
        var imagePixels = 0
        /// Passes over the pixels: an element each, what each `<use>` and `<tref>` repeats, an
        /// `feConvolveMatrix` its kernel, an `feTurbulence` `passesPerOctave` an octave.
        var instances = 0
        /// The radii of each `feMorphology`, in user units, which `SVGRasterizer` scales to a kernel
        /// in pixels and weighs.
        var morphologyRadii: [(x: Double, y: Double)] = []
        /// Numbers in path data and `points`: at least the vertices, where markers repeat.
        var vertices = 0

        /// Adds to `instances`, saturating: twenty thousand forged octave counts must not overflow.
        mutating func addPasses(_ n: Int) { instances = instances > (1 << 60) - n ? 1 << 60 : instances + n }

        static func == (a: Totals, b: Totals) -> Bool {
            a.elements == b.elements && a.textCharacters == b.textCharacters && a.entityBytes == b.entityBytes
                && a.imagePixels == b.imagePixels && a.instances == b.instances
                && a.morphologyRadii.map(\.x) == b.morphologyRadii.map(\.x) && a.morphologyRadii.map(\.y) == b.morphologyRadii.map(\.y)
        }
    }

    /// A byte source with entity references expanded: a stack of the document and the
    /// replacement texts being read.
    private struct Frame { var bytes: [UInt8]; var position: Int; var entity: String? }

    private static let maxEntityDepth = 32
    // Byte strings compared on every tag, made once.
    private static let href = Array("href".utf8), id = Array("id".utf8), xmlID = Array("xml:id".utf8)
    private static let dataScheme = Array("data:".utf8), include = Array("include".utf8), marker = Array("marker".utf8)
    private static let pathData = Array("d".utf8), points = Array("points".utf8), url = Array("url(".utf8)
    private static let textElements: Set<[UInt8]> = [Array("text".utf8), Array("tspan".utf8), Array("textPath".utf8)]
    private static let repeatingElements: Set<[UInt8]> = [Array("use".utf8), Array("tref".utf8)]
    /// Filter primitives whose cost grows with an attribute, not only with the pixels.
    private static let weightedPrimitives: [[UInt8]: (name: String, attribute: [UInt8])] = [
        Array("feTurbulence".utf8): ("feTurbulence", Array("numOctaves".utf8)),
        Array("feConvolveMatrix".utf8): ("feConvolveMatrix", Array("order".utf8)),
        Array("feMorphology".utf8): ("feMorphology", Array("radius".utf8)),
    ]
    /// An feTurbulence octave costs librsvg about 500 times a plain fill per pixel (100 octaves:
    /// 0.4 s at 96 × 96 pixels).
    static let passesPerOctave = 500
    private static let maxNameLength = 256
    /// A nested SVG image may itself embed SVG images this many levels deep.
    private static let maxImageNesting = 2

    let limits: SVGRasterizer.Limits
    private let name: String
    private let nesting: Int
    private var frames: [Frame]
    private var entities: [String: [UInt8]] = [:]
    /// The element tree, for what `<use>` repeats (see SVGPrescan+References.swift).
    var nodes: [SVGNode] = []
    var ids: [String: Int] = [:]
    private var open: [Int] = []
    private var expand = true
    /// How many frames were open when the last byte was read (1: the document itself).
    private var readDepth = 1
    var totals: Totals

    /// Scans `svg` against `limits`; throws `ImageError.svgRefused` naming the icon and the limit.
    static func scan(_ svg: [UInt8], name: String, limits: SVGRasterizer.Limits) throws -> Totals {
        if svg.starts(with: [0x1F, 0x8B]) {
            // librsvg would inflate it without a bound.
            throw ImageError.svgRefused(name: name, reason: "it is gzip-compressed (SVGZ), which is not accepted")
        }
        var scan = SVGPrescan(svg, name: name, limits: limits, nesting: 0, totals: Totals())
        try scan.run()
        try scan.countInstances()
        return scan.totals
    }

    private init(_ svg: [UInt8], name: String, limits: SVGRasterizer.Limits, nesting: Int, totals: Totals) {
        self.limits = limits; self.name = name; self.nesting = nesting; self.totals = totals
        frames = [Frame(bytes: svg, position: 0, entity: nil)]
    }

    func refuse(_ reason: String) -> ImageError { .svgRefused(name: name, reason: reason) }

    // MARK: - Reading

    /// The next byte, with a reference to a declared entity replaced by its text (when `expand`).
    private mutating func next() throws -> UInt8? {
        while !frames.isEmpty {
            let f = frames.count - 1  // indexed, not copied: this runs once a byte
            let position = frames[f].position
            guard position < frames[f].bytes.count else {
                frames.removeLast()
                continue
            }
            let c = frames[f].bytes[position]
            frames[f].position = position + 1
            if c == UInt8(ascii: "&"), expand, !entities.isEmpty,
               let (entity, length) = referenceName(in: frames[f].bytes, from: position + 1), let text = entities[entity] {
                try push(entity, text, skipping: length)
                continue
            }
            readDepth = frames.count
            return c
        }
        return nil
    }

    /// The name of an entity reference that starts after the `&` just read (`name;`), and its length.
    private func referenceName(in bytes: [UInt8], from start: Int) -> (String, Int)? {
        var i = start
        let end = min(bytes.count, i + SVGPrescan.maxNameLength)
        while i < end, bytes[i] != UInt8(ascii: ";") {
            let c = bytes[i]
            guard c > 0x20, c != UInt8(ascii: "&"), c != UInt8(ascii: "<"), c != UInt8(ascii: "#") else { return nil }
            i += 1
        }
        guard i < end, i > start else { return nil }
        return (String(decoding: bytes[start..<i], as: UTF8.self), i - start + 1)
    }

    private mutating func push(_ entity: String, _ text: [UInt8], skipping length: Int) throws {
        frames[frames.count - 1].position += length
        guard !frames.contains(where: { $0.entity == entity }) else { throw refuse("entity '\(entity.prefix(32))' refers to itself") }
        guard frames.count <= SVGPrescan.maxEntityDepth else { throw refuse("entities nest over \(SVGPrescan.maxEntityDepth) deep") }
        totals.entityBytes += text.count
        guard totals.entityBytes <= limits.maxEntityExpansionBytes else {
            throw refuse("its entity references expand to over \(limits.maxEntityExpansionBytes) bytes")
        }
        frames.append(Frame(bytes: text, position: 0, entity: entity))
    }

    /// Reads up to and including `terminator` (at most 4 bytes); false at the end of the input.
    /// `each` sees every byte.
    private mutating func skip(past terminator: [UInt8], each: (UInt8) throws -> Void = { _ in }) throws -> Bool {
        let mask: UInt32 = terminator.count >= 4 ? ~0 : (1 << (8 * UInt32(terminator.count))) - 1
        let target = terminator.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var window: UInt32 = 0, seen = 0
        while let c = try next() {
            try each(c)
            window = (window << 8 | UInt32(c)) & mask
            seen += 1
            if seen >= terminator.count, window == target { return true }
        }
        return false
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    // MARK: - Content

    private mutating func run() throws {
        var textDepth = 0
        var pending: UInt8?
        while let c = try pending.take() ?? next() {
            if c != UInt8(ascii: "<") {
                // Character data; count characters (not UTF-8 continuation bytes) that text layout gets.
                if textDepth > 0, c & 0xC0 != 0x80 { try countText(1) }
                continue
            }
            guard let d = try next() else { break }
            switch d {
            case UInt8(ascii: "!"):
                try markupDeclaration(textDepth: textDepth)
            case UInt8(ascii: "?"):
                expand = false
                _ = try skip(past: Array("?>".utf8))
                expand = true
            case UInt8(ascii: "/"):
                expand = false
                _ = try skip(past: [UInt8(ascii: ">")])
                expand = true
                if let node = open.popLast(), nodes[node].isText { textDepth -= 1 }
            default:
                let (node, selfClosing, after) = try startTag(first: d)
                pending = after
                if !selfClosing {
                    open.append(node)
                    if nodes[node].isText { textDepth += 1 }
                }
            }
        }
    }

    private mutating func countText(_ n: Int) throws {
        totals.textCharacters += n
        if let node = open.last { nodes[node].text += n }
        guard totals.textCharacters <= limits.maxTextCharacters else {
            throw refuse("it has over \(limits.maxTextCharacters) characters of text")
        }
    }

    /// After `<!`: a comment, a CDATA section (text), the DOCTYPE, or another declaration.
    private mutating func markupDeclaration(textDepth: Int) throws {
        expand = false
        defer { expand = true }
        guard let c = try next() else { return }
        if c == UInt8(ascii: "-") {
            _ = try skip(past: Array("-->".utf8))
        } else if c == UInt8(ascii: "[") {
            guard try skip(past: [UInt8(ascii: "[")]) else { return }  // "CDATA["
            var characters = 0
            _ = try skip(past: Array("]]>".utf8)) { b in if b & 0xC0 != 0x80 { characters += 1 } }
            if textDepth > 0 { try countText(characters) }
        } else if c == UInt8(ascii: "D") || c == UInt8(ascii: "d") {
            try doctype()
        } else {
            _ = try skip(past: [UInt8(ascii: ">")])
        }
    }

    /// A start tag after its `<`: counts the element, checks `data:` images in `href`s, notes its
    /// `id` and what a `<use>` refers to. Returns its node, whether it closed itself, and a byte
    /// read past it, if any.
    private mutating func startTag(first: UInt8) throws -> (node: Int, selfClosing: Bool, after: UInt8?) {
        totals.elements += 1
        guard totals.elements <= limits.maxElements else { throw refuse("it has over \(limits.maxElements) elements") }
        var tag = [first]
        var c = try next()
        while let b = c, !SVGPrescan.isSpace(b), b != UInt8(ascii: ">"), b != UInt8(ascii: "/") {
            if tag.count < SVGPrescan.maxNameLength { tag.append(b) }
            c = try next()
        }
        let local = tag.lastIndex(of: UInt8(ascii: ":")).map { Array(tag[(tag.index(after: $0))...]) } ?? tag
        // librsvg follows <xi:include> (data: URIs included as text or XML): no icon needs it.
        guard local != SVGPrescan.include else { throw refuse("it uses XInclude (<\(String(decoding: tag, as: UTF8.self))>), which is not accepted") }
        let node = nodes.count
        nodes.append(SVGNode(parent: open.last ?? -1, isText: SVGPrescan.textElements.contains(local), isMarker: local == SVGPrescan.marker))
        let repeats = SVGPrescan.repeatingElements.contains(local)
        let weighted = SVGPrescan.weightedPrimitives[local]
        // Attributes: name = "value" pairs up to '>' or '/>'.
        var attribute: [UInt8] = []
        while let b = c {
            if b == UInt8(ascii: ">") { return (node, false, nil) }
            if b == UInt8(ascii: "/") {
                let n = try next()
                if n == UInt8(ascii: ">") { return (node, true, nil) }
                c = n
                continue
            }
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                // Any prefix: librsvg matches href by namespace, and a document may bind xlink to any prefix.
                let isHref = attribute.count >= 4 && attribute.suffix(4).elementsEqual(SVGPrescan.href)
                    && (attribute.count == 4 || attribute[attribute.count - 5] == UInt8(ascii: ":"))
                let isID = attribute == SVGPrescan.id || attribute == SVGPrescan.xmlID
                let isWeight = weighted.map { attribute == $0.attribute } ?? false
                let isGeometry = attribute == SVGPrescan.pathData || attribute == SVGPrescan.points
                do {
                    let value = try attributeValue(quote: b)
                    // fill="url(#p)", mask=, clip-path=, filter=, style="...": each draws what it names again.
                    if !isHref { nodes[node].targets += SVGPrescan.urlReferences(in: value) }
                    if isHref, value.count > 5, value.prefix(5).map({ $0 | 0x20 }) == SVGPrescan.dataScheme {
                        try embeddedImage(Array(value))
                    } else if isHref, repeats, value.first == UInt8(ascii: "#") {
                        nodes[node].targets.append(String(decoding: value.dropFirst(), as: UTF8.self))
                    } else if isGeometry {
                        totals.vertices = min(1 << 40, totals.vertices + SVGPrescan.numberCount(value))
                    } else if isWeight {
                        filterWeight(weighted?.name ?? "", numbers: String(decoding: value, as: UTF8.self))
                    } else if isID, ids[String(decoding: value, as: UTF8.self)] == nil {
                        ids[String(decoding: value, as: UTF8.self)] = node
                    }
                }
                attribute = []
            } else if b == UInt8(ascii: "<") {
                return (node, true, b)  // malformed; let librsvg say so
            } else if !SVGPrescan.isSpace(b), b != UInt8(ascii: "=") {
                if attribute.count < SVGPrescan.maxNameLength { attribute.append(b) }
            }
            c = try next()
        }
        return (node, true, nil)
    }

    /// The ids of each `url(#id)` in `value` (quotes and spaces allowed around the reference).
    static func urlReferences(in value: ArraySlice<UInt8>) -> [String] {
        var out: [String] = []
        guard value.contains(UInt8(ascii: "(")) else { return out }
        var i = value.startIndex
        let open = SVGPrescan.url
        while i + open.count < value.endIndex {
            guard value[i] == open[0], value[i..<(i + open.count)].elementsEqual(open) else { i += 1; continue }
            i += open.count
            while i < value.endIndex, isSpace(value[i]) || value[i] == UInt8(ascii: "\"") || value[i] == UInt8(ascii: "'") { i += 1 }
            guard i < value.endIndex, value[i] == UInt8(ascii: "#") else { continue }
            let start = i + 1
            i = start
            while i < value.endIndex, !isSpace(value[i]), value[i] != UInt8(ascii: ")"), value[i] != UInt8(ascii: "\""),
                  value[i] != UInt8(ascii: "'") { i += 1 }
            if i > start { out.append(String(decoding: value[start..<i], as: UTF8.self)) }
        }
        return out
    }

    /// How many numbers `value` holds (runs of digits and dots): no fewer than its vertices.
    static func numberCount(_ value: ArraySlice<UInt8>) -> Int {
        var count = 0, inNumber = false
        for c in value {
            let numeric = (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: ".")
            if numeric && !inNumber { count += 1 }
            inNumber = numeric
        }
        return count
    }

    /// Adds a weighted filter primitive's cost (its attribute's one or two numbers; librsvg
    /// ignores the primitive when they are not positive).
    private mutating func filterWeight(_ primitive: String, numbers text: String) {
        let n = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" }).prefix(2).compactMap { Double($0) }
        guard let first = n.first, first.isFinite, first > 0 else { return }
        let second = n.count > 1 && n[1].isFinite && n[1] > 0 ? n[1] : first
        let cap = 1e12
        switch primitive {
        case "feMorphology": totals.morphologyRadii.append((min(first, cap), min(second, cap)))
        case "feConvolveMatrix": totals.addPasses(Int(min(first * second, cap)))
        default: totals.addPasses(Int(min(first, cap)) * SVGPrescan.passesPerOctave)
        }
    }

    /// An attribute's value after its opening quote, leading spaces dropped. A value in the current
    /// frame with no reference in it is a slice of that frame (a data: URI of megabytes is not
    /// copied byte by byte); one with references is read through them.
    private mutating func attributeValue(quote: UInt8) throws -> ArraySlice<UInt8> {
        let f = frames.count - 1
        if f >= 0, let end = frames[f].bytes[frames[f].position...].firstIndex(of: quote),
           entities.isEmpty || !frames[f].bytes[frames[f].position..<end].contains(UInt8(ascii: "&")) {
            let value = frames[f].bytes[frames[f].position..<end].drop { SVGPrescan.isSpace($0) }
            frames[f].position = end + 1
            readDepth = frames.count
            return value
        }
        var value: [UInt8] = []
        // A quote from an entity's text does not end the value (libxml2 reads it as a character).
        let depth = readDepth
        while let b = try next(), b != quote || readDepth > depth {
            if value.isEmpty, SVGPrescan.isSpace(b) { continue }
            value.append(b)
        }
        return value[...]
    }

    // MARK: - Embedded images

    private mutating func embeddedImage(_ uri: [UInt8]) throws {
        guard let data = SVGEmbeddedImage.decodeDataURI(uri) else { throw refuse("an embedded data: URI is not readable") }
        switch SVGEmbeddedImage.kind(of: data) {
        case .svg:
            guard nesting < SVGPrescan.maxImageNesting else { throw refuse("it nests SVG images over \(SVGPrescan.maxImageNesting) deep") }
            var inner = SVGPrescan(data, name: name, limits: limits, nesting: nesting + 1, totals: totals)
            try inner.run()
            try inner.countInstances()
            totals = inner.totals
        case .raster(let format, let pixels?):
            totals.imagePixels += pixels
            guard totals.imagePixels <= limits.maxEmbeddedImagePixels else {
                throw refuse("its embedded images have over \(limits.maxEmbeddedImagePixels) pixels (a \(format) of \(pixels))")
            }
        case .raster(let format, nil):
            throw refuse("an embedded \(format) image has no readable size in its header")
        case .other:
            throw refuse("an embedded image is not PNG, JPEG, GIF, WebP or SVG, so its size cannot be checked")
        }
    }

    // MARK: - DOCTYPE

    /// After `<!D`: the rest of the DOCTYPE, collecting the internal subset's general entities.
    /// Parameter entities are refused: with them the subset could declare what this scan does not see.
    private mutating func doctype() throws {
        var quote: UInt8?
        while let c = try next() {
            if let q = quote { if c == q { quote = nil }; continue }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { quote = c }
            else if c == UInt8(ascii: ">") { return }
            else if c == UInt8(ascii: "[") { try internalSubset(); quote = nil }
        }
    }

    private mutating func internalSubset() throws {
        while let c = try next() {
            switch c {
            case UInt8(ascii: "]"): return
            case UInt8(ascii: "%"): throw refuse("its DOCTYPE uses parameter entities")
            case UInt8(ascii: "<"):
                guard let d = try next() else { return }
                if d == UInt8(ascii: "?") { _ = try skip(past: Array("?>".utf8)); continue }
                guard d == UInt8(ascii: "!") else { continue }
                // A comment, or a declaration keyword (ENTITY, ELEMENT, ATTLIST, NOTATION).
                var keyword: [UInt8] = [], end: UInt8?
                while keyword != Array("--".utf8), keyword.count <= 16, let k = try next() {
                    if SVGPrescan.isSpace(k) || k == UInt8(ascii: ">") { end = k; break }
                    keyword.append(k)
                }
                if keyword == Array("--".utf8) {
                    _ = try skip(past: Array("-->".utf8))
                } else if keyword == Array("ENTITY".utf8) {
                    try entityDeclaration()
                } else if end != UInt8(ascii: ">") {
                    try skipDeclaration()
                }
            default: continue
            }
        }
    }

    /// Skips to the `>` that ends a declaration, past quoted literals.
    private mutating func skipDeclaration() throws {
        var quote: UInt8?
        while let c = try next() {
            if let q = quote { if c == q { quote = nil }; continue }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { quote = c }
            else if c == UInt8(ascii: ">") { return }
            else if c == UInt8(ascii: "%") { throw refuse("its DOCTYPE uses parameter entities") }
        }
    }

    /// `<!ENTITY name "value">`: the value with character references replaced, as libxml2 stores
    /// it. External and unparsed entities are skipped (librsvg loads neither).
    private mutating func entityDeclaration() throws {
        var c = try next()
        while let b = c, SVGPrescan.isSpace(b) { c = try next() }
        if c == UInt8(ascii: "%") { throw refuse("its DOCTYPE uses parameter entities") }
        var entityName: [UInt8] = []
        while let b = c, !SVGPrescan.isSpace(b), b != UInt8(ascii: ">"), b != UInt8(ascii: "\""), b != UInt8(ascii: "'") {
            if entityName.count < SVGPrescan.maxNameLength { entityName.append(b) }
            c = try next()
        }
        while let b = c, SVGPrescan.isSpace(b) { c = try next() }
        guard let q = c, q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") else {
            if c != UInt8(ascii: ">") { try skipDeclaration() }
            return
        }
        var raw: [UInt8] = []
        while let b = try next(), b != q { raw.append(b) }
        try skipDeclaration()
        let key = String(decoding: entityName, as: UTF8.self)
        if entities[key] == nil { entities[key] = SVGPrescan.replacingCharacterReferences(raw) }
    }

    /// `&#60;` and `&#x3C;` replaced by their UTF-8; other references left as they are.
    static func replacingCharacterReferences(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            if raw[i] == UInt8(ascii: "&"), i + 2 < raw.count, raw[i + 1] == UInt8(ascii: "#"),
               let semicolon = raw[(i + 2)...].prefix(12).firstIndex(of: UInt8(ascii: ";")) {
                var digits = raw[(i + 2)..<semicolon]
                var radix = 10
                if digits.first == UInt8(ascii: "x") { radix = 16; digits = digits.dropFirst() }
                if let v = UInt32(String(decoding: digits, as: UTF8.self), radix: radix), let scalar = Unicode.Scalar(v) {
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    i = semicolon + 1
                    continue
                }
            }
            out.append(raw[i])
            i += 1
        }
        return out
    }
}
