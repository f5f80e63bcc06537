import Foundation
import XCTest
import GLSnapTestSupport
@testable import GLSnapImage

/// Every SVG is scanned against `SVGRasterizer.Limits` before librsvg parses it (issue 17, item 2).
final class SVGLimitsTests: XCTestCase {
    private let header = SVGBombs.header

    /// The reason an SVG is refused for, checking it is refused quickly and names the icon.
    private func refusal(_ svg: [UInt8], limits: SVGRasterizer.Limits = SVGRasterizer.Limits(), name: String = "bomb",
                         file: StaticString = #filePath, line: UInt = #line) -> String? {
        let start = Date()
        // The issue's bound; a debug build on a loaded machine is far slower than the release one.
        defer { XCTAssertLessThan(Date().timeIntervalSince(start), 20, "refusing took too long", file: file, line: line) }
        do {
            _ = try SVGRasterizer(limits: limits).rasterize(svg, name: name, scale: 2)
            XCTFail("rasterized", file: file, line: line)
        } catch ImageError.svgRefused(let icon, let reason) {
            XCTAssertEqual(icon, name, file: file, line: line)
            return reason
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
        return nil
    }

    private func svg(_ s: String) -> [UInt8] { Array(s.utf8) }

    // MARK: - The three bombs

    func testEntityBombIsRefused() throws {
        let bomb = SVGBombs.entity()
        XCTAssertLessThan(bomb.count, 200_000)
        // Inside <text> the text limit trips first; anywhere else the expansion limit does.
        XCTAssertEqual(refusal(bomb), "it has over 1000 characters of text")
        let inDesc = String(decoding: bomb, as: UTF8.self).replacingOccurrences(of: "<text y=\"12\">", with: "<desc>")
            .replacingOccurrences(of: "</text>", with: "</desc>")
        XCTAssertEqual(refusal(Array(inDesc.utf8)), "its entity references expand to over 1048576 bytes")
        try writeBombsIfAsked()
    }

    func testTextBombIsRefused() {
        XCTAssertEqual(refusal(SVGBombs.text()), "it has over 1000 characters of text")
        // The limit counts characters, not bytes, and only inside text elements.
        let title = "<title>" + String(repeating: "t", count: 5000) + "</title>"
        XCTAssertNoThrow(try SVGRasterizer().rasterize(svg(header + title + "<text y=\"9\">" + String(repeating: "é", count: 1000) + "</text></svg>"),
                                                       name: "ok", scale: 1))
    }

    func testEmbeddedPNGBombIsRefused() {
        let bomb = SVGBombs.embeddedPNG()
        XCTAssertLessThan(bomb.count, 2_000_000)
        XCTAssertEqual(refusal(bomb), "its embedded images have over 4194304 pixels (a PNG of 225000000)")
    }

    /// The generated PNG is a real image: a small one decodes, and the same one embedded renders.
    func testGeneratedPNGDecodes() throws {
        let png = SVGBombs.blackPNG(width: 300, height: 200)
        let image = try PNGDecoder().decode(png)
        XCTAssertEqual([image.width, image.height], [300, 200])
        XCTAssertEqual(image.pixels[0..<4], [0, 0, 0, 255])
        let drawn = try SVGRasterizer().rasterize(SVGBombs.embeddedPNG(side: 300), name: "small", scale: 1)
        XCTAssertEqual(drawn.pixels[(12 * 24 + 12) * 4 + 3], 255)
    }

    // MARK: - Entities

    func testNestedEntitiesAreCountedExpanded() {
        // The billion laughs: each level is ten of the one below.
        var dtd = "<!ENTITY a0 \"lol\">"
        for i in 1...9 { dtd += "<!ENTITY a\(i) \"" + String(repeating: "&a\(i - 1);", count: 10) + "\">" }
        XCTAssertEqual(refusal(svg("<!DOCTYPE svg [\(dtd)]>" + header + "<desc>&a9;</desc></svg>")),
                       "its entity references expand to over 1048576 bytes")
        XCTAssertEqual(refusal(svg("<!DOCTYPE svg [<!ENTITY a \"&b;\"><!ENTITY b \"&a;\">]>" + header + "<desc>&a;</desc></svg>")),
                       "entity 'a' refers to itself")
    }

    /// Markup can hide in an entity as character references; the counts are those after expansion.
    func testMarkupInsideEntitiesIsCounted() {
        let element = "&#60;rect width='1' height='1'/&#62;"
        let many = "<!DOCTYPE svg [<!ENTITY r \"" + String(repeating: element, count: 100) + "\">]>"
        XCTAssertEqual(refusal(svg(many + header + String(repeating: "&r;", count: 210) + "</svg>")), "it has over 20000 elements")
        let text = "<!DOCTYPE svg [<!ENTITY t \"&#x3C;text&#x3E;" + String(repeating: "w", count: 600) + "&#x3C;/text&#x3E;\">]>"
        XCTAssertEqual(refusal(svg(text + header + "&t;&t;</svg>")), "it has over 1000 characters of text")
    }

    func testParameterEntitiesAndSVGZAreRefused() {
        XCTAssertEqual(refusal(svg("<!DOCTYPE svg [<!ENTITY % p \"<!ENTITY e 'x'>\"> %p;]>" + header + "</svg>")),
                       "its DOCTYPE uses parameter entities")
        XCTAssertEqual(refusal([0x1F, 0x8B, 8, 0, 0, 0]), "it is gzip-compressed (SVGZ), which is not accepted")
        let include = #"<text xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="data:,hello" parse="text"/></text>"#
        XCTAssertEqual(refusal(svg(header + include + "</svg>")), "it uses XInclude (<xi:include>), which is not accepted")
    }

    /// Illustrator-style documents: short entities used in attributes still render.
    func testOrdinaryEntitiesStillRender() throws {
        let doc = """
        <?xml version="1.0"?>
        <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
          <!ENTITY ns_svg "http://www.w3.org/2000/svg">
          <!-- a comment with a % sign -->
          <!ENTITY red "#ff0000">
        ]>
        <svg xmlns="&ns_svg;" width="4" height="4"><rect width="4" height="4" fill="&red;"/></svg>
        """
        let image = try SVGRasterizer().rasterize(svg(doc), name: "illustrator", scale: 1)
        XCTAssertEqual(Array(image.pixels[0..<4]), [255, 0, 0, 255])
        let totals = try SVGPrescan.scan(svg(doc), name: "illustrator", limits: SVGRasterizer.Limits())
        XCTAssertEqual(totals, SVGPrescan.Totals(elements: 2, textCharacters: 0, entityBytes: 33, imagePixels: 0, instances: 2))
    }

    // MARK: - Elements, embedded images, time

    func testElementLimit() {
        let rects = String(repeating: "<rect width=\"1\" height=\"1\"/>", count: 50)
        var limits = SVGRasterizer.Limits()
        limits.maxElements = 40
        XCTAssertEqual(refusal(svg(header + rects + "</svg>"), limits: limits), "it has over 40 elements")
    }

    func testEmbeddedImageHeaders() {
        func kind(_ bytes: [UInt8]) -> SVGEmbeddedImage.Kind { SVGEmbeddedImage.kind(of: bytes) }
        XCTAssertEqual(kind(SVGBombs.blackPNG(width: 3, height: 5)), .raster(format: "PNG", pixels: 15))
        // JPEG: SOI, an APP0 segment, then SOF0 with height 600 and width 800.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xC0, 0, 11, 8, 0x02, 0x58, 0x03, 0x20, 1, 1, 0x11, 0]
        XCTAssertEqual(kind(jpeg), .raster(format: "JPEG", pixels: 480_000))
        // GIF: a 10x10 screen and two frames.
        var gif = Array("GIF89a".utf8) + [10, 0, 10, 0, 0, 0, 0]
        for _ in 0..<2 { gif += [0x2C, 0, 0, 0, 0, 10, 0, 10, 0, 0, 2, 1, 0, 0] }
        gif.append(0x3B)
        XCTAssertEqual(kind(gif), .raster(format: "GIF", pixels: 200))
        // WebP VP8X: canvas 1000 x 2000 (stored minus one).
        var webp = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0]
        webp += [0xE7, 0x03, 0, 0xCF, 0x07, 0]
        XCTAssertEqual(kind(webp), .raster(format: "WebP", pixels: 2_000_000))
        // A forged IHDR of 2^32-1 x 2^32-1 saturates instead of overflowing.
        var forged = SVGBombs.blackPNG(width: 1, height: 1)
        for i in 16..<24 { forged[i] = 0xFF }
        XCTAssertEqual(kind(forged), .raster(format: "PNG", pixels: Int.max / 4))
        XCTAssertEqual(kind(Array("BM....".utf8)), .other)
        XCTAssertEqual(kind(Array("  <svg/>".utf8)), .svg)
        XCTAssertEqual(SVGEmbeddedImage.decodeDataURI(Array("data:text/plain;base64,aGk%3D".utf8)), Array("hi".utf8))
        XCTAssertEqual(SVGEmbeddedImage.decodeDataURI(Array("data:,a%20b".utf8)), Array("a b".utf8))
    }

    func testUncheckableAndNestedImages() {
        XCTAssertEqual(refusal(svg(header + "<image href=\"data:image/bmp;base64,Qk0AAAA=\"/></svg>")),
                       "an embedded image is not PNG, JPEG, GIF, WebP or SVG, so its size cannot be checked")
        // An SVG image embedding the text bomb, under an xlink prefix of its own choosing.
        let inner = Data(SVGBombs.text()).base64EncodedString()
        XCTAssertEqual(refusal(svg(header + "<image xmlns:l=\"http://www.w3.org/1999/xlink\" l:href=\"data:image/svg+xml;base64,\(inner)\"/></svg>")),
                       "it has over 1000 characters of text")
    }

    func testSlowRasterizationIsRefused() throws {
        var limits = SVGRasterizer.Limits()
        limits.maxRasterizeSeconds = 0
        let flag = try flag() // skips here without ../shared, not inside XCTUnwrap
        let reason = try XCTUnwrap(refusal(flag, limits: limits, name: "flag"))
        XCTAssertTrue(reason.hasPrefix("rasterizing it took "), reason)
        XCTAssertTrue(reason.hasSuffix(" s, over the 0.0 s limit"), reason)
    }

    func testFlagPassesAndItsScanIsCheap() throws {
        let flag = try flag()
        let totals = try SVGPrescan.scan(flag, name: "flag", limits: SVGRasterizer.Limits())
        XCTAssertEqual(totals, SVGPrescan.Totals(elements: 7, textCharacters: 0, entityBytes: 0, imagePixels: 0, instances: 7))
        let rounds = 2000
        let start = Date()
        for _ in 0..<rounds { _ = try SVGPrescan.scan(flag, name: "flag", limits: SVGRasterizer.Limits()) }
        let micros = Date().timeIntervalSince(start) / Double(rounds) * 1e6
        print("SVG pre-scan of flag.svg (\(flag.count) bytes): \(String(format: "%.1f", micros)) µs")
        XCTAssertLessThan(micros, 2000)
    }

    private func flag() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: try SharedFolder.require("fixtures/icons/flag.svg")))
    }

    /// With `GLSNAP_WRITE_SVG_BOMBS=<folder>`: the three bombs, flag.svg and one style per bomb
    /// (the flag and the bomb side by side), for `/usr/bin/time -v glsnap render --style <folder>/<bomb>.json ...`.
    private func writeBombsIfAsked() throws {
        guard let folder = ProcessInfo.processInfo.environment["GLSNAP_WRITE_SVG_BOMBS"] else { return }
        let dir = URL(fileURLWithPath: folder)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(try flag()).write(to: dir.appendingPathComponent("flag.svg"))
        let bombs = [("entity-bomb", SVGBombs.entity()), ("text-bomb", SVGBombs.text()), ("png-bomb", SVGBombs.embeddedPNG())]
        for (name, bytes) in bombs {
            try Data(bytes).write(to: dir.appendingPathComponent(name + ".svg"))
            let style = """
            {"version": 8, "sprite": "./",
             "sources": {"points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
               {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-0.001, 0]}, "properties": {"icon": "flag"}},
               {"type": "Feature", "geometry": {"type": "Point", "coordinates": [0.001, 0]}, "properties": {"icon": "\(name)"}}]}}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#f2efe9"}},
               {"id": "icons", "type": "symbol", "source": "points",
                "layout": {"icon-image": ["get", "icon"], "icon-allow-overlap": true}}]}
            """
            try Data(style.utf8).write(to: dir.appendingPathComponent(name + ".json"))
        }
    }
}

/// What `<use>` repeats, and the element × pixel budget that depends on the scale.
final class SVGRepeatLimitsTests: XCTestCase {
    private let header = #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="24" height="24">"#

    private func reason(_ svg: String, limits: SVGRasterizer.Limits = SVGRasterizer.Limits(), scale: Double = 1) -> String? {
        do {
            _ = try SVGRasterizer(limits: limits).rasterize(Array(svg.utf8), name: "icon", scale: scale)
        } catch ImageError.svgRefused(_, let reason) {
            return "refused: " + reason
        } catch ImageError.svg(_, let reason) {
            return reason
        } catch {
            return "\(error)"
        }
        return nil
    }

    /// 100 uses of a 1000-character text took 3.2 s; chains of uses multiply.
    func testUsesOfTextAreCountedAsRepeated() {
        let text = "<defs><text id=\"t\" y=\"12\" font-size=\"2\">" + String(repeating: "w", count: 500) + "</text></defs>"
        XCTAssertEqual(reason(header + text + "<use xlink:href=\"#t\"/></svg>"), nil)
        XCTAssertEqual(reason(header + text + String(repeating: "<use xlink:href=\"#t\"/>", count: 3) + "</svg>"),
                       "refused: its <use> elements and markers repeat over 1000 characters of text")
        // Ten groups, each using the one before ten times: 10^10 rectangles.
        var chain = "<defs><rect id=\"g0\" width=\"1\" height=\"1\"/>"
        for i in 1...10 { chain += "<g id=\"g\(i)\">" + String(repeating: "<use href=\"#g\(i - 1)\"/>", count: 10) + "</g>" }
        XCTAssertEqual(reason(header + chain + "</defs><use href=\"#g10\"/></svg>"), "refused: its <use> elements and markers repeat over 20000 elements")
        XCTAssertEqual(reason(header + "<g id=\"a\"><use href=\"#a\"/></g></svg>"), "refused: its <use> elements refer to themselves")
    }

    /// feMorphology radius 400 took 0.3, 0.9 and 2.4 s at 96, 192 and 384 pixels (its kernel is
    /// clipped to the filter region); feTurbulence with 10 and 100 octaves 0.04 and 0.4 s at 96 pixels.
    func testFilterKernelsCountAsPasses() {
        let morph = header + "<filter id=\"f\"><feMorphology radius=\"400\"/></filter><rect width=\"24\" height=\"24\" filter=\"url(#f)\"/></svg>"
        XCTAssertEqual(reason(morph, scale: 8), nil)
        // 6 elements (the filter again where the rect names it) + 14 × (384 + 384) passes at 192 pixels;
        // at 960 pixels 6 + 14 × (1920 + 1920) do not.
        XCTAssertEqual(reason(morph, scale: 40),
                       "drawing 53766 element passes (filter kernels included) on 960x960 pixels is over the limit of 4000000000 element-pixels")
        let turbulence = header + "<filter id=\"f\"><feTurbulence baseFrequency=\"0.1\" numOctaves=\"1000000\"/></filter><rect width=\"24\" height=\"24\" filter=\"url(#f)\"/></svg>"
        // Many forged octave counts saturate instead of overflowing.
        let forged = header + "<filter id=\"f\">" + String(repeating: "<feTurbulence numOctaves=\"1e300\"/>", count: 19000) + "</filter></svg>"
        XCTAssertEqual(reason(forged), "drawing 1000000000000000 element passes (filter kernels included) on 24x24 pixels is over the limit of 4000000000 element-pixels")
        XCTAssertEqual(reason(turbulence),
                       "drawing 500000006 element passes (filter kernels included) on 24x24 pixels is over the limit of 4000000000 element-pixels")
    }

    /// A mask, clip path or pattern is drawn again for each element naming it.
    func testURLReferencesAreCountedAsRepeated() {
        let mask = "<mask id=\"m\">" + String(repeating: "<rect width=\"1\" height=\"1\"/>", count: 100) + "</mask>"
        let users = { (n: Int) in String(repeating: "<rect width=\"24\" height=\"24\" style=\"mask: url( '#m' )\"/>", count: n) }
        XCTAssertEqual(reason(header + mask + users(100) + "</svg>"), nil)
        XCTAssertEqual(reason(header + mask + users(300) + "</svg>"), "refused: its <use> elements and markers repeat over 20000 elements")
        XCTAssertEqual(SVGPrescan.urlReferences(in: Array(##"fill:url(#a);stroke:url("#b") ; filter: url(c)"##.utf8)[...]), ["a", "b"])
    }

    /// A marker is drawn at every vertex: 20 000 vertices with a 10-rectangle marker took 1.5 s.
    func testMarkersAreCountedAtEveryVertex() {
        let marker = "<marker id=\"m\" markerWidth=\"2\" markerHeight=\"2\">" + String(repeating: "<rect width=\"1\" height=\"1\"/>", count: 10) + "</marker>"
        let path = { (n: Int) in "<path d=\"M0 0" + String(repeating: " L1 1", count: n) + "\" stroke=\"black\" marker-mid=\"url(#m)\"/>" }
        XCTAssertEqual(reason(header + marker + path(500) + "</svg>"), nil)  // 11 × 1002 numbers
        XCTAssertEqual(reason(header + marker + path(1000) + "</svg>"), "refused: its <use> elements and markers repeat over 20000 elements")
        XCTAssertEqual(SVGPrescan.numberCount(Array("M0,0 L1.5 -2.25 h3".utf8)[...]), 5)
        // The vertices of points= count too.
        XCTAssertEqual(reason(header + marker + "<polyline points=\"" + String(repeating: "1 ", count: 5000) + "\"/></svg>"),
                       "refused: its <use> elements and markers repeat over 20000 elements")
    }

    func testElementPixelBudgetDependsOnTheScale() {
        var limits = SVGRasterizer.Limits()
        limits.maxElementPixels = 100 * 48 * 48
        let paths = header + String(repeating: "<path d=\"M0 0 L24 24 L0 24 Z\"/>", count: 99) + "</svg>"
        XCTAssertEqual(reason(paths, limits: limits, scale: 2), nil)  // 100 elements with the root
        XCTAssertEqual(reason(paths, limits: limits, scale: 3),
                       "drawing 100 element passes (filter kernels included) on 72x72 pixels is over the limit of 230400 element-pixels")
    }
}
