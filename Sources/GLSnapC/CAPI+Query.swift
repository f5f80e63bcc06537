import GLSnap
import GLSnapStyle

// Feature queries on snapshots and feature state on snapshotters (glsnap.h documents each).
// Queries answer GeoJSON text, as `glsnap query` prints it; a query that cannot be answered (an
// unknown layer or source, a filter that is not one, a point that is not finite) is an error
// code with the library's message, never a crash.

/// The query options of a C call: `layers` a JSON array of ids (NULL or "": every layer),
/// `filter` a filter as JSON (NULL or "": none).
private func queryOptions(_ layers: UnsafePointer<CChar>?, _ filter: UnsafePointer<CChar>?) throws -> QueryOptions {
    var options = QueryOptions()
    if let layers, layers.pointee != 0 {
        let items = try json(layers, "layers").arrayValue
        let ids = items?.compactMap(\.stringValue) ?? []
        guard let items, ids.count == items.count else {
            throw CallError(.invalidArgument, "layers must be a JSON array of layer ids, e.g. [\"water\", \"roads\"]")
        }
        options.layers = ids
    }
    if let filter, filter.pointee != 0 {
        options.filter = try json(filter, "filter")
    }
    return options
}

/// Runs a query on a snapshot handle and hands the features out as a FeatureCollection.
private func query(_ p: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                   _ body: @escaping (Snapshot) throws -> [QueriedFeature]) -> Int32 {
    guard let h = snapshotHandle(p) else { return Status.invalidArgument.rawValue }
    return h.errors.call {
        guard let out else { throw CallError(.invalidArgument, "geojson_out is NULL") }
        out.pointee = nil
        let features: [QueriedFeature]
        do { features = try body(h.snapshot) } catch let e as QueryError {
            let unknown = e.message.contains("does not exist")
            throw CallError(unknown ? .notFound : .invalidArgument, e.description)
        }
        try mallocString(QueriedFeature.featureCollection(features).text, out)
    }
}

@_cdecl("glsnap_snapshot_query_point")
public func glsnap_snapshot_query_point(_ p: OpaquePointer?, _ x: Double, _ y: Double, _ layers: UnsafePointer<CChar>?,
                                        _ filter: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    query(p, out) { snapshot in
        try snapshot.queryRenderedFeatures(at: Point(x: x, y: y), options: try queryOptions(layers, filter))
    }
}

@_cdecl("glsnap_snapshot_query_box")
public func glsnap_snapshot_query_box(_ p: OpaquePointer?, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double,
                                      _ layers: UnsafePointer<CChar>?, _ filter: UnsafePointer<CChar>?,
                                      _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    query(p, out) { snapshot in
        try snapshot.queryRenderedFeatures(in: (Point(x: x1, y: y1), Point(x: x2, y: y2)), options: try queryOptions(layers, filter))
    }
}

@_cdecl("glsnap_snapshot_query_source_features")
public func glsnap_snapshot_query_source_features(_ p: OpaquePointer?, _ source: UnsafePointer<CChar>?, _ sourceLayer: UnsafePointer<CChar>?,
                                                  _ filter: UnsafePointer<CChar>?,
                                                  _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    query(p, out) { snapshot in
        let layer = try sourceLayer.flatMap { $0.pointee == 0 ? nil : try text($0, "source_layer") }
        let f = try filter.flatMap { $0.pointee == 0 ? nil : try json($0, "filter") }
        return try snapshot.querySourceFeatures(source: try text(source, "source"), sourceLayer: layer, filter: f)
    }
}

// MARK: feature state

/// The source and source layer a feature-state call names, checked against the current style:
/// the source must exist, and a vector source needs its source layer (as MapLibre's setFeatureState).
private func stateTarget(_ h: SnapshotterHandle, _ source: UnsafePointer<CChar>?,
                         _ sourceLayer: UnsafePointer<CChar>?) throws -> (source: String, sourceLayer: String?) {
    let id = try text(source, "source")
    let layer = try sourceLayer.flatMap { $0.pointee == 0 ? nil : try text($0, "source_layer") }
    guard let definition = h.snapshotter.getSource(id) else {
        let ids = h.snapshotter.getStyle()?["sources"]?.objectValue?.keys.sorted() ?? []
        throw CallError(.notFound, "no source \"\(id)\" in the style (sources: \(StyleDocument.list(ids)))")
    }
    if definition["type"]?.stringValue == "vector", layer == nil {
        throw CallError(.invalidArgument, "source \"\(id)\" is a vector source: name its source_layer")
    }
    return (id, layer)
}

@_cdecl("glsnap_set_feature_state")
public func glsnap_set_feature_state(_ s: OpaquePointer?, _ source: UnsafePointer<CChar>?, _ sourceLayer: UnsafePointer<CChar>?,
                                     _ featureID: UnsafePointer<CChar>?, _ state: UnsafePointer<CChar>?) -> Int32 {
    call(s) { h in
        let target = try stateTarget(h, source, sourceLayer)
        let id = try text(featureID, "feature_id")
        guard let values = try json(state, "state").objectValue else {
            throw CallError(.invalidArgument, "state must be a JSON object, e.g. {\"hover\": true}")
        }
        h.snapshotter.setFeatureState(source: target.source, sourceLayer: target.sourceLayer, id: id, state: values)
    }
}

@_cdecl("glsnap_get_feature_state")
public func glsnap_get_feature_state(_ s: OpaquePointer?, _ source: UnsafePointer<CChar>?, _ sourceLayer: UnsafePointer<CChar>?,
                                     _ featureID: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    call(s) { h in
        guard let out else { throw CallError(.invalidArgument, "json_out is NULL") }
        let target = try stateTarget(h, source, sourceLayer)
        let state = h.snapshotter.featureState(source: target.source, sourceLayer: target.sourceLayer, id: try text(featureID, "feature_id"))
        try mallocString(JSON.object(state).text, out)
    }
}

@_cdecl("glsnap_remove_feature_state")
public func glsnap_remove_feature_state(_ s: OpaquePointer?, _ source: UnsafePointer<CChar>?, _ sourceLayer: UnsafePointer<CChar>?,
                                        _ featureID: UnsafePointer<CChar>?, _ key: UnsafePointer<CChar>?) -> Int32 {
    call(s) { h in
        let target = try stateTarget(h, source, sourceLayer)
        let id = try featureID.flatMap { $0.pointee == 0 ? nil : try text($0, "feature_id") }
        let name = try key.flatMap { $0.pointee == 0 ? nil : try text($0, "key") }
        guard id != nil || name == nil else { throw CallError(.invalidArgument, "a key needs a feature_id (a key of every feature is not removed at once)") }
        h.snapshotter.removeFeatureState(source: target.source, sourceLayer: target.sourceLayer, id: id, key: name)
    }
}
