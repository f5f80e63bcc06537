import GLSnap
import GLSnapImage
import GLSnapStyle

// The runtime style calls of the C ABI. Each checks the names it is given against the style
// document the handle holds (the ABI's messages), then makes the change through the library's
// runtime styling (Snapshotter+Style.swift), which checks the value and redoes only the cached
// work the change affects; the document then takes the style as changed. A call that fails
// leaves the style as it was.

/// Parses a JSON argument, naming it in the error.
func json(_ p: UnsafePointer<CChar>?, _ name: String) throws -> JSON {
    let s = try text(p, name)
    do { return try JSON.parse(s) } catch { throw CallError(.invalidArgument, "\(name) is not valid JSON: \(error)") }
}

/// Checks the change on a copy of the document, makes it with `apply`, and keeps the style as
/// the snapshotter has it after.
private func edit(_ s: OpaquePointer?, _ change: @escaping (inout StyleDocument) throws -> Void,
                  apply: @escaping (Snapshotter) throws -> Void) -> Int32 {
    call(s) { h in
        try h.styleLock.withLock {
            guard var doc = h.style else {
                throw CallError(.style, "no style JSON to change: set one with glsnap_set_style_json or glsnap_set_style_file (styles fetched over HTTP cannot be changed)")
            }
            try change(&doc)
            do { try apply(h.snapshotter) } catch let e as StyleEditError {
                throw CallError(e)
            }
            if let changed = h.snapshotter.getStyle() { doc.update(changed) }
            h.style = doc
        }
    }
}

/// Reads the style under its lock.
private func read(_ s: OpaquePointer?, _ body: @escaping (StyleDocument) throws -> Void) -> Int32 {
    call(s) { h in
        try h.styleLock.withLock {
            guard let doc = h.style else { throw CallError(.style, "no style set: call glsnap_set_style_json or glsnap_set_style_file first") }
            try body(doc)
        }
    }
}

@_cdecl("glsnap_set_filter")
public func glsnap_set_filter(_ s: OpaquePointer?, _ layer: UnsafePointer<CChar>?, _ filter: UnsafePointer<CChar>?) -> Int32 {
    edit(s) { doc in
        let id = try text(layer, "layer")
        let clear = filter == nil || filter?.pointee == 0
        try doc.setFilter(layer: id, filter: clear ? nil : try json(filter, "filter"))
    } apply: { snapshotter in
        try snapshotter.setFilter(try text(layer, "layer"), filter == nil || filter?.pointee == 0 ? nil : try json(filter, "filter"))
    }
}

@_cdecl("glsnap_set_paint_property")
public func glsnap_set_paint_property(_ s: OpaquePointer?, _ layer: UnsafePointer<CChar>?, _ name: UnsafePointer<CChar>?,
                                      _ value: UnsafePointer<CChar>?) -> Int32 {
    edit(s) { doc in
        try doc.setProperty(layer: try text(layer, "layer"), group: "paint", name: try text(name, "name"), value: try json(value, "value"))
    } apply: { snapshotter in
        try snapshotter.setPaintProperty(try text(layer, "layer"), try text(name, "name"), try json(value, "value"))
    }
}

@_cdecl("glsnap_set_layout_property")
public func glsnap_set_layout_property(_ s: OpaquePointer?, _ layer: UnsafePointer<CChar>?, _ name: UnsafePointer<CChar>?,
                                       _ value: UnsafePointer<CChar>?) -> Int32 {
    edit(s) { doc in
        try doc.setProperty(layer: try text(layer, "layer"), group: "layout", name: try text(name, "name"), value: try json(value, "value"))
    } apply: { snapshotter in
        try snapshotter.setLayoutProperty(try text(layer, "layer"), try text(name, "name"), try json(value, "value"))
    }
}

@_cdecl("glsnap_set_visibility")
public func glsnap_set_visibility(_ s: OpaquePointer?, _ layer: UnsafePointer<CChar>?, _ visible: Int32) -> Int32 {
    edit(s) { doc in try doc.setVisibility(layer: try text(layer, "layer"), visible: visible != 0) } apply: { snapshotter in
        try snapshotter.setLayoutProperty(try text(layer, "layer"), "visibility", .string(visible != 0 ? "visible" : "none"))
    }
}

@_cdecl("glsnap_add_source")
public func glsnap_add_source(_ s: OpaquePointer?, _ id: UnsafePointer<CChar>?, _ source: UnsafePointer<CChar>?) -> Int32 {
    edit(s) { doc in try doc.addSource(id: try text(id, "id"), source: try json(source, "source")) } apply: { snapshotter in
        try snapshotter.addSource(try text(id, "id"), try json(source, "source"))
    }
}

@_cdecl("glsnap_add_layer")
public func glsnap_add_layer(_ s: OpaquePointer?, _ layer: UnsafePointer<CChar>?, _ before: UnsafePointer<CChar>?) -> Int32 {
    edit(s) { doc in try doc.addLayer(try json(layer, "layer"), before: try before.map { try text($0, "before") }) } apply: { snapshotter in
        try snapshotter.addLayer(try json(layer, "layer"), before: try before.map { try text($0, "before") })
    }
}

@_cdecl("glsnap_set_geojson_source_data")
public func glsnap_set_geojson_source_data(_ s: OpaquePointer?, _ source: UnsafePointer<CChar>?, _ data: UnsafePointer<CChar>?) -> Int32 {
    // Parsed once (the data may be large) and handed from the check to the change.
    var value = JSON.null
    return edit(s) { doc in
        let id = try text(source, "source")
        guard let definition = doc.sources[id] else {
            throw CallError(.notFound, "no source \"\(id)\" in the style (sources: \(StyleDocument.list(doc.sourceIDs)))")
        }
        guard definition["type"]?.stringValue == "geojson" else {
            throw CallError(.invalidArgument, "source \"\(id)\" is a \(definition["type"]?.stringValue ?? "typeless") source, not geojson")
        }
        value = try json(data, "data")
        guard value.objectValue != nil || value.stringValue != nil else {
            throw CallError(.invalidArgument, "data must be a GeoJSON object or a URL string")
        }
    } apply: { snapshotter in
        try snapshotter.setGeoJSONSourceData(try text(source, "source"), value)
    }
}

@_cdecl("glsnap_remove_layer")
public func glsnap_remove_layer(_ s: OpaquePointer?, _ id: UnsafePointer<CChar>?) -> Int32 {
    edit(s) { doc in try doc.removeLayer(try text(id, "id")) } apply: { snapshotter in try snapshotter.removeLayer(try text(id, "id")) }
}

@_cdecl("glsnap_list_layers")
public func glsnap_list_layers(_ s: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    read(s) { doc in
        guard let out else { throw CallError(.invalidArgument, "out is NULL") }
        try mallocString(JSON.array(doc.layerIDs.map { .string($0) }).text, out)
    }
}

@_cdecl("glsnap_list_sources")
public func glsnap_list_sources(_ s: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    read(s) { doc in
        guard let out else { throw CallError(.invalidArgument, "out is NULL") }
        try mallocString(JSON.array(doc.sourceIDs.map { .string($0) }).text, out)
    }
}

@_cdecl("glsnap_get_layer")
public func glsnap_get_layer(_ s: OpaquePointer?, _ id: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    read(s) { doc in
        guard let out else { throw CallError(.invalidArgument, "out is NULL") }
        let name = try text(id, "id")
        guard let layer = doc.layer(name) else {
            throw CallError(.notFound, "no layer \"\(name)\" in the style (layers: \(StyleDocument.list(doc.layerIDs)))")
        }
        try mallocString(layer.text, out)
    }
}

@_cdecl("glsnap_get_style")
public func glsnap_get_style(_ s: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    read(s) { doc in
        guard let out else { throw CallError(.invalidArgument, "out is NULL") }
        try mallocString(doc.text, out)
    }
}

/// Limits on images added through the ABI: a side beyond this is refused before any copy.
let maxAddedImageSide: Int32 = 8192

@_cdecl("glsnap_add_image")
public func glsnap_add_image(_ s: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ rgba: UnsafePointer<UInt8>?, _ width: Int32,
                             _ height: Int32, _ ratio: Double, _ sdf: Int32) -> Int32 {
    call(s) { h in
        let id = try text(name, "name")
        guard let rgba else { throw CallError(.invalidArgument, "image '\(id)': pixels are NULL") }
        guard (1...maxAddedImageSide).contains(width), (1...maxAddedImageSide).contains(height) else {
            throw CallError(.invalidArgument, "image '\(id)' is \(width)x\(height); each side must be within 1...\(maxAddedImageSide)")
        }
        let count = Int(width) * Int(height) * 4
        let image = RGBAImage(width: Int(width), height: Int(height), pixels: Array(UnsafeBufferPointer(start: rgba, count: count)))
        try h.styleLock.withLock {
            try h.snapshotter.addImage(id, StyleImage(image: image, pixelRatio: ratio, sdf: sdf != 0))
            h.tiles = nil  // placed tile regions drew without the image
        }
    }
}

@_cdecl("glsnap_remove_image")
public func glsnap_remove_image(_ s: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> Int32 {
    call(s) { h in
        let id = try text(name, "name")
        try h.styleLock.withLock { try h.snapshotter.removeImage(id) }
    }
}
