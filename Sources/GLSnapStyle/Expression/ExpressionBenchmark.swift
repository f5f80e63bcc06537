import Foundation

/// A micro-benchmark of property evaluation: a zoom-and-property `line-width` (an exponential zoom
/// curve over `match` on a string property, times a numeric property) and a filter, evaluated for
/// many features. Run it from a release build (`GLSNAP_BENCH=1 swift test -c release ...` or a
/// tool); the figure is meaningless in a debug build.
public enum ExpressionBenchmark {
    /// What one run measured.
    public struct Result: Sendable, CustomStringConvertible {
        public let evaluations: Int
        public let seconds: Double
        /// A checksum of the results, so the work cannot be optimized away.
        public let checksum: Double
        public var nanosecondsPerFeature: Double { seconds * 1e9 / Double(max(evaluations, 1)) }
        public var description: String {
            String(format: "%d features in %.3f s: %.1f ns per feature (filter + line-width), checksum %.3f",
                   evaluations, seconds, nanosecondsPerFeature, checksum)
        }
    }

    struct BenchFeature: FeatureContext {
        var geometryType: GeometryType
        var featureID: JSON?
        var properties: [String: JSON]
        func property(_ key: String) -> JSON? { properties[key] }
    }

    static let styleText = """
    {"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [{"id": "roads", "type": "line", "source": "s",
     "source-layer": "transportation",
     "filter": ["all", ["==", ["geometry-type"], "LineString"], ["in", ["get", "class"], ["literal", ["motorway", "trunk", "primary", "secondary", "minor"]]]],
     "paint": {"line-width": ["interpolate", ["exponential", 1.5], ["zoom"],
        8, ["*", ["match", ["get", "class"], ["motorway", "trunk"], 1.5, "primary", 1, 0.5], ["coalesce", ["get", "lanes"], 1]],
        18, ["*", ["match", ["get", "class"], ["motorway", "trunk"], 24, "primary", 16, 8], ["coalesce", ["get", "lanes"], 1]]]}}]}
    """

    /// Evaluates the filter and `line-width` for `featureCount` features (cycling over 1,024
    /// distinct ones) at zoom 14.3. Returns nil only if the built-in style fails to compile.
    public static func run(featureCount: Int = 1_000_000) -> Result? {
        guard let style = try? Style(bytes: Array(styleText.utf8)), let line = style.layers.first?.line,
              let filter = style.layers.first?.filter else { return nil }
        let width = line.width
        let classes = ["motorway", "trunk", "primary", "secondary", "minor", "path"]
        var features: [EvaluationContext] = []
        for i in 0..<1024 {
            var props: [String: JSON] = ["class": .string(classes[i % classes.count]), "name": .string("Road \(i)")]
            if i % 3 != 0 { props["lanes"] = .number(Double(1 + i % 4)) }
            let f = BenchFeature(geometryType: i % 17 == 0 ? .polygon : .lineString, featureID: .number(Double(i)), properties: props)
            features.append(EvaluationContext(zoom: 14.3, feature: f))
        }
        var checksum = 0.0
        let start = DispatchTime.now().uptimeNanoseconds
        features.withUnsafeBufferPointer { buf in
            for i in 0..<featureCount {
                let ctx = buf[i & 1023]
                if filter.evaluate(ctx) { checksum += width.evaluate(ctx) }
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Result(evaluations: featureCount, seconds: seconds, checksum: checksum)
    }
}
