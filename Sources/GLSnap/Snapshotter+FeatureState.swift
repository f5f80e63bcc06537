import GLSnapRender
import GLSnapStyle

/// Feature state: values that paint expressions read with `["feature-state", key]`, set per
/// feature by source, source layer (vector sources) and id. The state belongs to the snapshotter
/// and survives `setStyle`; a source's `promoteId` names the property that serves as the id.
extension Snapshotter {
    /// Merges `state` into the feature's state (keys not named keep their values).
    /// `id` is the feature id as text: `"1"` names the feature with id 1 or "1".
    public func setFeatureState(source: String, sourceLayer: String? = nil, id: String, state: [String: JSON]) {
        updateFeatureStates { states in
            states.states[source, default: [:]][sourceLayer ?? "", default: [:]][id, default: [:]].merge(state) { $1 }
        }
    }

    /// Removes one key of a feature's state, all of a feature's state (`key` nil), or the state of
    /// every feature of the source layer (`id` nil).
    public func removeFeatureState(source: String, sourceLayer: String? = nil, id: String? = nil, key: String? = nil) {
        updateFeatureStates { states in
            let layer = sourceLayer ?? ""
            guard let id else { states.states[source]?[layer] = nil; return }
            if let key { states.states[source]?[layer]?[id]?[key] = nil } else { states.states[source]?[layer]?[id] = nil }
        }
    }

    /// The id text of a feature id given as JSON (`1` and `1.0` give "1"); nil for other values.
    public static func featureID(_ id: JSON) -> String? { FeatureStates.key(id) }

    /// The current state of a feature (empty when it has none).
    public func featureState(source: String, sourceLayer: String? = nil, id: String) -> [String: JSON] {
        currentFeatureStates().states[source]?[sourceLayer ?? ""]?[id] ?? [:]
    }

    /// The `promoteId` of each source of `style`: a property name for every source layer, or one
    /// per source layer.
    static func promoteIds(_ style: Style) -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        for (name, definition) in style.sources {
            switch definition["promoteId"] {
            case .string(let property)?: result[name] = ["": property]
            case .object(let byLayer)?: result[name] = byLayer.compactMapValues(\.stringValue)
            default: break
            }
        }
        return result
    }
}
