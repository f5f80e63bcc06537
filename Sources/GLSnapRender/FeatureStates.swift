import GLSnapData
import GLSnapLayout
import GLSnapStyle

/// Feature states for a frame (`setFeatureState`), by source, source layer and feature id, with
/// each source's `promoteId`. `generation` changes whenever a state changes, so per-vertex paint
/// that reads `feature-state` is evaluated again.
public struct FeatureStates: Sendable {
    /// Changes with every state change; 0 when there is no state.
    public var generation = 0
    /// source → source layer ("" for GeoJSON and when none is given) → feature id key → state.
    public var states: [String: [String: [String: [String: JSON]]]] = [:]
    /// source → source layer ("" for all layers) → the property that holds the feature id.
    public var promoteIds: [String: [String: String]] = [:]

    public init() {}

    /// The key of a feature id: strings as they are, integral numbers without a fraction
    /// (`1` and `1.0` are the same feature), other numbers in their shortest form.
    public static func key(_ id: JSON) -> String? {
        switch id {
        case .string(let s): return s
        case .number(let n):
            guard n.isFinite else { return nil }
            if n == n.rounded(), abs(n) < 1e18 { return String(Int64(n)) }
            return String(n)
        default: return nil
        }
    }

    /// The states of one layer's features, or nil when it has none.
    func layerStates(source: String?, sourceLayer: String?) -> (states: [String: [String: JSON]], promoteId: String?)? {
        guard let source, let bySourceLayer = states[source] else { return nil }
        let layerKey = sourceLayer ?? ""
        guard let states = bySourceLayer[layerKey], !states.isEmpty else { return nil }
        let promote = promoteIds[source].flatMap { $0[layerKey] ?? $0[""] }
        return (states, promote)
    }

    /// The state of `feature` among `states`.
    static func state(of feature: VectorFeature, in states: [String: [String: JSON]], promoteId: String?) -> [String: JSON] {
        let id = promoteId.flatMap { feature.properties[$0] } ?? feature.id
        guard let id, let key = key(id) else { return [:] }
        return states[key] ?? [:]
    }
}
