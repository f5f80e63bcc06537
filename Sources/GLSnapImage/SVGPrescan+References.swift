/// One element of a scanned SVG: enough of the tree to count what `<use>` repeats.
struct SVGNode {
    /// The index of the parent element; -1 for the root.
    var parent: Int
    var isText: Bool
    /// A `<marker>`: drawn again at each vertex of each path that names it.
    var isMarker = false
    /// Characters of text directly inside it.
    var text = 0
    /// The ids it draws again: a `<use>` or `<tref>` (`href="#id"`), and `url(#id)` in any
    /// attribute (a pattern, gradient, mask, clip path, filter or marker).
    var targets: [String] = []
}

extension SVGPrescan {
    /// The deepest chain of elements and references followed: libxml2 refuses documents nested
    /// deeper than 256 anyway, and it keeps the walk's stack small.
    private static let maxReferenceDepth = 256

    /// Counts the elements and text as drawn, each `<use>`/`<tref>` adding what it refers to (a
    /// chain of uses repeating groups of uses multiplies), and checks them against the limits.
    /// Elements inside `<defs>` count once as well: an overestimate, never an underestimate.
    mutating func countInstances() throws {
        let markers = totals.vertices > 0 ? nodes.indices.filter { nodes[$0].isMarker } : []
        guard markers.isEmpty == false || nodes.contains(where: { !$0.targets.isEmpty }) else {
            totals.addPasses(nodes.count)
            return
        }
        var children = [[Int]](repeating: [], count: nodes.count)
        var roots: [Int] = []
        for (i, n) in nodes.enumerated() {
            if n.parent >= 0 { children[n.parent].append(i) } else { roots.append(i) }
        }
        // Saturating sums: past the limits the exact size of an explosion does not matter.
        let cap = 1 << 40
        var memo = [(elements: Int, text: Int)?](repeating: nil, count: nodes.count)
        var visiting = [Bool](repeating: false, count: nodes.count)
        func cost(_ e: Int, _ depth: Int) throws -> (elements: Int, text: Int) {
            if let m = memo[e] { return m }
            guard !visiting[e] else { throw refuse("its <use> elements refer to themselves") }
            guard depth < SVGPrescan.maxReferenceDepth else {
                throw refuse("its elements and <use> references nest over \(SVGPrescan.maxReferenceDepth) deep")
            }
            visiting[e] = true
            var total = (elements: 1, text: nodes[e].text)
            var parts = children[e]
            parts += nodes[e].targets.compactMap { ids[$0] }
            for p in parts {
                let c = try cost(p, depth + 1)
                total = (min(cap, total.elements + c.elements), min(cap, total.text + c.text))
            }
            visiting[e] = false
            memo[e] = total
            return total
        }
        var drawn = (elements: 0, text: 0)
        for r in roots {
            let c = try cost(r, 0)
            drawn = (min(cap, drawn.elements + c.elements), min(cap, drawn.text + c.text))
        }
        // A marker may be drawn at every vertex of every path (which paths name it is a matter of
        // style, so every vertex counts).
        for m in markers {
            let c = try cost(m, 0)
            let vertices = min(totals.vertices, cap)
            func times(_ a: Int) -> Int {
                let (product, overflow) = a.multipliedReportingOverflow(by: vertices)
                return overflow ? cap : min(cap, product)
            }
            drawn = (min(cap, drawn.elements + times(c.elements)), min(cap, drawn.text + times(c.text)))
        }
        guard drawn.elements <= limits.maxElements else {
            throw refuse("its <use> elements and markers repeat over \(limits.maxElements) elements")
        }
        guard drawn.text <= limits.maxTextCharacters else {
            throw refuse("its <use> elements and markers repeat over \(limits.maxTextCharacters) characters of text")
        }
        totals.addPasses(drawn.elements)
    }
}
