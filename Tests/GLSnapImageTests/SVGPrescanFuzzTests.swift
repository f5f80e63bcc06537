import XCTest
@testable import GLSnapImage

/// Mutated documents never trap the scan (a trap would take the whole server down) and each
/// ends in time proportional to its bytes.
final class SVGPrescanFuzzTests: XCTestCase {
    /// A small deterministic generator (SplitMix64), so a failure replays.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    func testMutatedDocumentsNeverTrap() {
        let png = Data(SVGBombs.blackPNG(width: 2, height: 2)).base64EncodedString()
        let seeds = [
            #"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "&#60;tspan&#62;ab&#60;/tspan&#62;"><!ENTITY b "&a;&a;"><!-- c -->]>"#
                + #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="8" height="8">"#
                + ##"<defs><g id="g"><text>&b;<![CDATA[x]]></text></g></defs><use xlink:href="#g"/><use href="#g"/>"##
                + #"<image href="data:image/png;base64,\#(png)"/><filter><feMorphology radius="1 2"/><feTurbulence numOctaves="3"/></filter></svg>"#,
            #"<svg xmlns="http://www.w3.org/2000/svg"><image href="data:image/svg+xml,%3Csvg%3E%3Ctext%3Ehi%3C/text%3E%3C/svg%3E"/></svg>"#,
        ].map { Array($0.utf8) }
        let specials = Array("<>&;#\"'[]%!?/-=:x ".utf8)
        var g = Generator(state: 17)
        let limits = SVGRasterizer.Limits()
        for round in 0..<3000 {
            var doc = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(g.next() % 6)) where !doc.isEmpty {
                let i = Int(g.next() % UInt64(doc.count))
                switch g.next() % 4 {
                case 0: doc[i] = specials[Int(g.next() % UInt64(specials.count))]
                case 1: doc.insert(specials[Int(g.next() % UInt64(specials.count))], at: i)
                case 2: doc.remove(at: i)
                default: doc = Array(doc[..<max(1, i)])
                }
            }
            let start = Date()
            _ = try? SVGPrescan.scan(doc, name: "fuzz", limits: limits)
            XCTAssertLessThan(Date().timeIntervalSince(start), 5, "round \(round): \(String(decoding: doc, as: UTF8.self))")
        }
    }
}
