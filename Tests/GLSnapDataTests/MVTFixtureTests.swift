import XCTest
import GLSnapTestSupport
import GLSnapStyle
@testable import GLSnapData

/// `path` below ../shared (SharedFolder), or skips.
func sharedDirectory(_ path: String) throws -> URL { try SharedFolder.require(path) }

func readBytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

/// The mvt-fixtures suite: every fixture decodes or fails as its info.json says, and decoded
/// content matches tile.json (the fixture's protobuf written out as JSON).
final class MVTFixtureTests: XCTestCase {
    /// Fixtures whose info.json this decoder knowingly contradicts, with the reason.
    /// 057 is marked valid, yet its MoveTo count (536870911) needs far more parameters than the
    /// two that follow: byte for byte the same defect as 051, which is marked fatal. The
    /// decoder treats both as "count too large". (024 and 061 both lack a layer version: 2.x
    /// fixtures are decoded under the strict 2.1 rules, where that is fatal, and 1.x ones as
    /// MapLibre reads them, where it means version 1.)
    static let deviations: [String: String] = [
        "057": "same command-count defect as fatal fixture 051",
    ]

    func testAllFixturesBehaveAsInfoJSONSays() throws {
        let root = try sharedDirectory("mvt-fixtures/fixtures")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        var valid = 0, recovered = 0, fatal = 0, deviating = 0
        for name in names {
            let dir = root.appendingPathComponent(name)
            let info = try JSON.parse(try readBytes(dir.appendingPathComponent("info.json")))
            let expected = try JSON.parse(try readBytes(dir.appendingPathComponent("tile.json")))
            let bytes = try readBytes(dir.appendingPathComponent("tile.mvt"))
            let validity = info["validity"]
            // Judge a 1.x tile by the v1 rules, everything else by v2.
            let isV1 = info["proto"]?.stringValue?.hasPrefix("1.") ?? false
            let mustDecode = (isV1 ? validity?["v1"] : validity?["v2"])?.boolValue ?? false
            let errorKind = validity?["error"]?.stringValue
            // 2.x fixtures under the strict 2.1 rules; 1.x ones as MapLibre reads them.
            let result = Result { try VectorTile.decode(bytes, rules: isV1 ? .compatible : .strict2) }

            if name == "057" {
                XCTAssertThrowsError(try result.get(), "fixture \(name)")
                deviating += 1
            } else if mustDecode || errorKind == "recoverable" {
                switch result {
                case .success(let tile):
                    assertMatches(tile, expected, fixture: name)
                case .failure(let error):
                    XCTFail("fixture \(name) must decode (\(mustDecode ? "valid" : "recoverable")) but threw: \(error)")
                }
                if mustDecode { valid += 1 } else { recovered += 1 }
            } else {
                if case .success = result { XCTFail("fixture \(name) is invalid (\(errorKind ?? "no kind")) but decoded") }
                if case .failure(let error) = result {
                    XCTAssertNotNil(error as? TileDecodeError, "fixture \(name): \(error)")
                }
                fatal += 1
            }
        }
        XCTAssertEqual(names.count, 74)
        XCTAssertEqual(valid + recovered + fatal + deviating, names.count)
        XCTAssertEqual(deviating, Self.deviations.count)
        print("mvt-fixtures: \(names.count) fixtures, \(valid) valid decoded, \(recovered) recoverable decoded, "
              + "\(fatal) invalid rejected, \(deviating) known deviation(s)")
    }

    /// Compares a decoded tile with the fixture's tile.json under the decoder's documented policy:
    /// first layer of a name wins; features of unknown type, without geometry or with an odd
    /// tag count are dropped; the last geometry field wins (tile.json shows one).
    private func assertMatches(_ tile: VectorTile, _ expected: JSON, fixture: String) {
        var seen = Set<String>()
        let layers = (expected["layers"]?.arrayValue ?? []).filter { layer in
            guard let name = layer["name"]?.stringValue else { return false }
            return seen.insert(name).inserted
        }
        XCTAssertEqual(Set(tile.layers.keys), seen, "fixture \(fixture): layer names")
        for layer in layers {
            guard let name = layer["name"]?.stringValue, let got = tile.layers[name] else { continue }
            XCTAssertEqual(got.extent, Int(layer["extent"]?.numberValue ?? 4096), "fixture \(fixture): extent")
            XCTAssertEqual(got.version, Int(layer["version"]?.numberValue ?? -1), "fixture \(fixture): version")
            let keys = layer["keys"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let values = (layer["values"]?.arrayValue ?? []).map(expectedValue)
            let features = (layer["features"]?.arrayValue ?? []).filter { f in
                let type = f["type"]?.numberValue ?? 0
                let tags = f["tags"]?.arrayValue?.count ?? 0
                return type >= 1 && type <= 3 && f["geometry"] != nil && tags % 2 == 0
            }
            XCTAssertEqual(got.features.count, features.count, "fixture \(fixture): feature count")
            for (g, f) in zip(got.features, features) {
                XCTAssertEqual(g.id, f["id"], "fixture \(fixture): id")
                XCTAssertEqual(Double(g.geometryType.rawValue), f["type"]?.numberValue, "fixture \(fixture): type")
                let tags = f["tags"]?.arrayValue?.compactMap(\.numberValue).map(Int.init) ?? []
                var props: [String: JSON] = [:]
                for i in stride(from: 0, to: tags.count, by: 2) { props[keys[tags[i]]] = values[tags[i + 1]] }
                XCTAssertEqual(props.count, g.properties.count, "fixture \(fixture): property count")
                for (k, v) in props { assertSame(g.properties[k], v, "fixture \(fixture): property \(k)") }
                let commands = f["geometry"]?.arrayValue?.compactMap(\.numberValue).map { UInt32($0) } ?? []
                XCTAssertEqual(g.geometry, referenceGeometry(commands, type: g.geometryType),
                               "fixture \(fixture): geometry")
            }
        }
    }

    /// A tile.json value object ({"int_value": 6}); fixture 076 writes the string "613" as a
    /// JSON number under string_value, so a numeric string_value means its decimal text.
    private func expectedValue(_ value: JSON) -> JSON {
        if case .number(let n)? = value["string_value"] { return .string(String(Int(n))) }
        return value.objectValue?.values.first ?? .null
    }

    /// Numbers agree to float precision (float_value is stored as a 32-bit float).
    private func assertSame(_ got: JSON?, _ want: JSON, _ message: String) {
        if case .number(let a)? = got, case .number(let b) = want {
            XCTAssertEqual(a, b, accuracy: max(1e-6, abs(b) * 1e-7), message)
        } else {
            XCTAssertEqual(got, want, message)
        }
    }

    /// A plain restatement of spec 4.3 for valid command streams, to check the decoder against.
    private func referenceGeometry(_ commands: [UInt32], type: GeometryType) -> [[TilePoint]] {
        var parts: [[TilePoint]] = []
        var x: Int32 = 0, y: Int32 = 0
        var i = 0
        func param(_ v: UInt32) -> Int32 { Int32(bitPattern: (v >> 1) ^ (0 &- (v & 1))) }
        while i < commands.count {
            let id = commands[i] & 7, count = Int(commands[i] >> 3)
            i += 1
            if id == 7 {
                parts[parts.count - 1].append(parts[parts.count - 1][0])
                continue
            }
            for _ in 0..<count {
                x &+= param(commands[i]); y &+= param(commands[i + 1]); i += 2
                if id == 1 { parts.append([TilePoint(x: x, y: y)]) } else { parts[parts.count - 1].append(TilePoint(x: x, y: y)) }
            }
        }
        return parts
    }

    // Hand-computed expectations for a few fixtures, independent of tile.json.

    private func fixtureTile(_ name: String) throws -> VectorTile {
        let dir = try sharedDirectory("mvt-fixtures/fixtures/\(name)")
        return try VectorTile.decode(try readBytes(dir.appendingPathComponent("tile.mvt")))
    }

    private func p(_ x: Int32, _ y: Int32) -> TilePoint { TilePoint(x: x, y: y) }

    func testHandDecodedGeometries() throws {
        // Skips here without ../shared (an XCTSkip thrown inside an assertion would be an error).
        _ = try sharedDirectory("mvt-fixtures/fixtures")
        XCTAssertEqual(try fixtureTile("017").layers["hello"]?.features.first?.geometry, [[p(25, 17)]])
        XCTAssertEqual(try fixtureTile("019").layers["hello"]?.features.first?.geometry,
                       [[p(3, 6), p(8, 12), p(20, 34), p(3, 6)]])
        XCTAssertEqual(try fixtureTile("020").layers["hello"]?.features.first?.geometry, [[p(5, 7)], [p(3, 2)]])
        XCTAssertEqual(try fixtureTile("021").layers["hello"]?.features.first?.geometry,
                       [[p(2, 2), p(2, 10), p(10, 10)], [p(1, 1), p(3, 5)]])
        // 049: x starts at Int32.max, then +1 wraps.
        XCTAssertEqual(try fixtureTile("049").layers["hello"]?.features.first?.geometry,
                       [[p(Int32.max, 0), p(Int32.min, 1)]])
    }

    func testAllValueTypes() throws {
        // Skips here without ../shared (an XCTSkip thrown inside an assertion would be an error).
        _ = try sharedDirectory("mvt-fixtures/fixtures")
        let feature = try XCTUnwrap(try fixtureTile("038").layers["hello"]?.features.first)
        XCTAssertEqual(feature.id, .number(1))
        XCTAssertEqual(feature.geometryType, .point)
        XCTAssertEqual(feature.properties["string_value"], .string("ello"))
        XCTAssertEqual(feature.properties["bool_value"], .bool(true))
        XCTAssertEqual(feature.properties["int_value"], .number(6))
        XCTAssertEqual(feature.properties["double_value"], .number(1.23))
        XCTAssertEqual(feature.properties["float_value"], .number(Double(Float(3.1))))
        XCTAssertEqual(feature.properties["sint_value"], .number(-87948))
        XCTAssertEqual(feature.properties["uint_value"], .number(87948))
    }

    func testExactErrors() throws {
        // Skips here without ../shared (an XCTSkip thrown inside an assertion would be an error).
        _ = try sharedDirectory("mvt-fixtures/fixtures")
        func error(_ name: String) throws -> TileDecodeError? {
            let dir = try sharedDirectory("mvt-fixtures/fixtures/\(name)")
            do { _ = try VectorTile.decode(try readBytes(dir.appendingPathComponent("tile.mvt"))); return nil } catch {
                return error as? TileDecodeError
            }
        }
        XCTAssertEqual(try error("014"), .missingLayerName(offset: 0))
        XCTAssertEqual(try error("012"), .unsupportedLayerVersion(layer: "hello", version: 99, offset: 0))
        if case .geometry(_, let rule, _)? = try error("047") {
            XCTAssertEqual(rule, "ClosePath with count 2 (it must be 1)")
        } else { XCTFail("047 must fail on its ClosePath count") }
        if case .geometry(_, let rule, _)? = try error("044") {
            XCTAssertEqual(rule, "ClosePath before the first MoveTo")
        } else { XCTFail("044 must fail on its leading ClosePath") }
        if case .wrongWireType(let field, .varint, .lengthDelimited, _)? = try error("007") {
            XCTAssertEqual(field, "Layer.version")
        } else { XCTFail("007 must fail on the version's wire type") }
        XCTAssertTrue(try error("051")?.description.contains("count 536870911") ?? false)
    }

    /// No input crashes the decoder: every fixture truncated at every length and with seeded
    /// random byte flips either decodes or throws.
    func testTruncatedAndCorruptedTilesNeverCrash() throws {
        let root = try sharedDirectory("mvt-fixtures/fixtures")
        var rng = SplitMix64(seed: 0x5eed_1234)
        var outcomes = (decoded: 0, threw: 0)
        func attempt(_ bytes: [UInt8]) {
            do { _ = try VectorTile.decode(bytes); outcomes.decoded += 1 } catch { outcomes.threw += 1 }
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() {
            let bytes = try readBytes(root.appendingPathComponent(name).appendingPathComponent("tile.mvt"))
            for length in 0..<bytes.count { attempt(Array(bytes[0..<length])) }
            guard !bytes.isEmpty else { continue }
            for _ in 0..<200 {
                var copy = bytes
                for _ in 0..<(1 + Int(rng.next() % 4)) {
                    copy[Int(rng.next() % UInt64(copy.count))] = UInt8(truncatingIfNeeded: rng.next())
                }
                attempt(copy)
            }
        }
        XCTAssertGreaterThan(outcomes.decoded, 0)
        XCTAssertGreaterThan(outcomes.threw, 0)
        XCTAssertEqual(try VectorTile.decode([]).layers.count, 0)
    }
}

/// A small seeded generator so fuzz runs repeat exactly.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
