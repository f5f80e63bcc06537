import GLSnap
import GLSnapStyle

/// What `metadata.test` of a render case's style asks for.
package struct RenderCaseSpec {
    /// Defaults of the GL render-test harness.
    package static let defaultSide = 512.0
    package static let defaultAllowed = 0.00015

    package var width = RenderCaseSpec.defaultSide
    package var height = RenderCaseSpec.defaultSide
    package var pixelRatio = 1.0
    /// The largest mismatched fraction that still passes.
    package var allowed = RenderCaseSpec.defaultAllowed
    /// Runtime-styling steps, in order.
    package var operations: [CaseOperation] = []
    /// `crossSourceCollisions` (default true).
    package var crossSourceCollisions = true
    /// `showPadding`: the padding's debug lines drawn over the map (DebugPadding).
    package var showPadding = false
    /// `debug` (tile borders) and `collisionDebug` (collision boxes), drawn through `MapSnapshotOptions.debug`.
    package var debug: MapDebugOptions = []
    /// `terrainSkirtLength`: `"auto"` (default) hangs skirts under terrain tiles, `"none"` does not.
    package var terrainSkirts = true
    /// Needs the runner cannot meet (debug drawing, operations the API lacks), in words; a case
    /// with any fails without being drawn.
    package var unsupported: [String] = []
    /// `addFakeCanvas`: the canvas the harness makes before the map (its id, and the image drawn
    /// into it, relative to the suite folder), given to the snapshotter with `setCanvas`.
    package var fakeCanvas: (id: String, image: String)?
    /// `reportWidth` x `reportHeight`: the part of the image the harness compares (HarnessCanvas).
    package var reportSize: (width: Int, height: Int)?
    /// `maxPitch`: the map's steepest pitch (GL JS's default, 60); a steeper camera is drawn at it.
    package var maxPitch = RenderCaseSpec.defaultMaxPitch
    package static let defaultMaxPitch = 60.0

    /// The zooms a snapshot's camera takes (`Snapshotter` refuses others).
    package static let zooms = Snapshotter.cameraZooms

    /// A finite zoom outside `zooms` moved to the nearest one, as GL JS's transform clamps it;
    /// nil for one inside (or not finite, which the snapshot refuses).
    package static func clampedZoom(_ zoom: Double) -> Double? {
        guard zoom.isFinite else { return nil }
        let clamped = min(max(zoom, zooms.lowerBound), zooms.upperBound)
        return clamped == zoom ? nil : clamped
    }

    /// Reads `metadata.test` of a parsed style; a missing block or a value of the wrong type
    /// keeps the default. Unknown or malformed operations end up in `unsupported`.
    package init(style: JSON) {
        guard let test = style["metadata"]?["test"] else { return }
        if let w = test["width"]?.finiteNumber { width = w }
        if let h = test["height"]?.finiteNumber { height = h }
        if let r = test["pixelRatio"]?.finiteNumber { pixelRatio = r }
        pixelRatio = HarnessCanvas.pixelRatio(pixelRatio, width: width, height: height)
        if let w = test["reportWidth"]?.finiteNumber, let h = test["reportHeight"]?.finiteNumber, w >= 1, h >= 1,
           w <= HarnessCanvas.maxSide, h <= HarnessCanvas.maxSide {
            reportSize = (Int(w), Int(h))
        }
        if let p = test["maxPitch"]?.finiteNumber { maxPitch = p }
        if let a = test["allowed"]?.finiteNumber { allowed = a }
        if let d = test["diff"]?.finiteNumber { allowed = d }
        if let c = test["crossSourceCollisions"]?.boolValue { crossSourceCollisions = c }
        showPadding = test["showPadding"]?.boolValue ?? false
        if let id = test["addFakeCanvas"]?["id"]?.stringValue, let image = test["addFakeCanvas"]?["image"]?.stringValue {
            fakeCanvas = (id, image)
        }
        if test["terrainSkirtLength"]?.stringValue == "none" { terrainSkirts = false }
        if test["debug"]?.boolValue == true { debug.insert(.tileBorders) }
        if test["collisionDebug"]?.boolValue == true { debug.insert(.collision) }
        if test["showOverdrawInspector"]?.boolValue == true { debug.insert(.overdraw) }
        if let ops = test["operations"]?.arrayValue {
            var names: [String] = []
            for op in ops {
                switch CaseOperation(op) {
                case .some(.unsupported(let name)): if !names.contains(name) { names.append(name) }
                case .some(let parsed): operations.append(parsed)
                case nil: if !names.contains("(malformed)") { names.append("(malformed)") }
                }
            }
            if !names.isEmpty { unsupported.append("operations not supported: " + names.joined(separator: ", ")) }
        } else if test["operations"] != nil {
            unsupported.append("operations not supported: (malformed)")
        }
    }
}

extension JSON {
    /// The number, when it is one and finite.
    package var finiteNumber: Double? {
        guard let n = numberValue, n.isFinite else { return nil }
        return n
    }
}

/// One runtime-styling step the runner can carry out with the public snapshot API. Loading is
/// synchronous and there is no fading; `wait` moves the clock of paint transitions only.
package enum CaseOperation {
    /// `["wait"]` (nil: until loaded, transitions ended) or `["wait", ms]` (the fake clock moves).
    case wait(Double?)
    case setZoom(Double)
    case setCenter(longitude: Double, latitude: Double)
    case setBearing(Double)
    case setPitch(Double)
    /// `setRoll`, `setVerticalFieldOfView`, `setCenterElevation`, `setCenterClampedToGround`,
    /// `setPadding` and `easeTo` (its end state: the
    /// harness waits out the ease before the snapshot): the camera values they set.
    case moveCamera(CameraStep)
    /// A whole new style: inline JSON text, or a URL (e.g. `local://styles/x.json`).
    case setStyleJSON(String)
    case setStyleURL(String)
    /// Runtime styling (paint and layout properties, filters, zoom ranges, layers and sources,
    /// light, sky, terrain, projection, global state), through the snapshotter's API.
    case editStyle(StyleEdit)
    /// `setFeatureState` / `removeFeatureState`: the feature's source, source layer and id (as
    /// `Snapshotter.featureID` text; nil: every feature), and the state to merge or the key to remove.
    case setFeatureState(source: String, sourceLayer: String?, id: String, state: [String: JSON])
    case removeFeatureState(source: String, sourceLayer: String?, id: String?, key: String?)
    /// `addImage`: the image's name, its file (relative to the suite folder), pixel ratio and SDF flag;
    /// `removeImage` by name.
    case addImage(name: String, path: String, pixelRatio: Double, sdf: Bool)
    case removeImage(String)
    /// `addCustomLayer`: one of the GL harness's custom layers (`HarnessCustomLayers`) by name,
    /// below the layer `before` or on top.
    case addCustomLayer(name: String, before: String?)
    /// `updateFakeCanvas`: the harness plays the canvas source, draws `played` into the fake
    /// canvas (shown), pauses the source and draws `paused` (not shown).
    case updateFakeCanvas(source: String, played: String, paused: String)
    /// An operation GL JS's harness carries out as nothing: its default branch calls `map[name]`
    /// only where the map has such a method, and `pauseTiles` (from mapbox-gl-js's harness) has
    /// none, so the expected image is drawn without it.
    case harnessNoOp(String)
    /// Anything else, by name.
    case unsupported(String)

    /// nil when the step is not `[name, args…]`.
    package init?(_ value: JSON) {
        guard let step = value.arrayValue, let name = step.first?.stringValue else { return nil }
        let args = step.dropFirst()
        let first = args.first
        switch name {
        case "wait":
            self = .wait(first?.finiteNumber)
        case "idle", "sleep":
            // GL JS waits for the map to settle (`idle`) or for real time to pass (`sleep`);
            // here loading is synchronous, so both end every transition, as `["wait"]` does.
            self = .wait(nil)
        case "setZoom":
            guard let z = first?.finiteNumber else { return nil }
            self = .setZoom(z)
        case "setBearing":
            guard let b = first?.finiteNumber else { return nil }
            self = .setBearing(b)
        case "setPitch":
            guard let p = first?.finiteNumber else { return nil }
            self = .setPitch(p)
        case "setRoll":
            guard let r = first?.finiteNumber else { return nil }
            self = .moveCamera(CameraStep(roll: r))
        case "setVerticalFieldOfView":
            guard let f = first?.finiteNumber else { return nil }
            self = .moveCamera(CameraStep(fieldOfView: f))
        case "setCenterElevation":
            guard let e = first?.finiteNumber else { return nil }
            var step = CameraStep()
            step.centerAltitude = e
            self = .moveCamera(step)
        case "setCenterClampedToGround":
            guard let clamped = first?.boolValue else { return nil }
            var step = CameraStep()
            step.centerClampedToGround = clamped
            self = .moveCamera(step)
        case "setPadding":
            guard let p = first?.objectValue, let step = CameraStep(easeTo: ["padding": .object(p)]) else { return nil }
            self = .moveCamera(step)
        case "easeTo", "jumpTo":
            guard let options = first?.objectValue else { return nil }
            guard let step = CameraStep(easeTo: options) else { self = .unsupported("\(name) with options other than the camera's"); return }
            self = .moveCamera(step)
        case "setCenter":
            guard let c = first?.arrayValue, c.count >= 2,
                  let lon = c[0].finiteNumber, let lat = c[1].finiteNumber else { return nil }
            self = .setCenter(longitude: lon, latitude: lat)
        case "setStyle":
            if let url = first?.stringValue {
                self = .setStyleURL(url)
            } else if let object = first, object.objectValue != nil {
                self = .setStyleJSON(object.text)
            } else {
                return nil
            }
        case "setFeatureState":
            guard let target = first?.objectValue, let source = target["source"]?.stringValue,
                  let id = target["id"].flatMap(Snapshotter.featureID), args.count >= 2,
                  let state = args[args.startIndex + 1].objectValue else { return nil }
            self = .setFeatureState(source: source, sourceLayer: target["sourceLayer"]?.stringValue, id: id, state: state)
        case "addImage":
            guard let imageName = first?.stringValue, args.count >= 2,
                  let path = args[args.startIndex + 1].stringValue else { return nil }
            let options = args.count >= 3 ? args[args.startIndex + 2] : .null
            self = .addImage(name: imageName, path: path, pixelRatio: options["pixelRatio"]?.finiteNumber ?? 1,
                             sdf: options["sdf"]?.boolValue ?? false)
        case "removeImage":
            guard let imageName = first?.stringValue else { return nil }
            self = .removeImage(imageName)
        case "updateFakeCanvas":
            guard let source = first?.stringValue, args.count >= 3, let played = args[args.startIndex + 1].stringValue,
                  let paused = args[args.startIndex + 2].stringValue else { return nil }
            self = .updateFakeCanvas(source: source, played: played, paused: paused)
        case "pauseTiles":
            self = .harnessNoOp(name)
        case "addCustomLayer":
            guard let layerName = first?.stringValue else { return nil }
            guard HarnessCustomLayers.layer(named: layerName) != nil else { self = .unsupported("addCustomLayer \(layerName)"); return }
            self = .addCustomLayer(name: layerName, before: args.count >= 2 ? args[args.startIndex + 1].stringValue : nil)
        case "removeFeatureState":
            guard let target = first?.objectValue, let source = target["source"]?.stringValue else { return nil }
            let key = args.count >= 2 ? args[args.startIndex + 1].stringValue : nil
            self = .removeFeatureState(source: source, sourceLayer: target["sourceLayer"]?.stringValue,
                                       id: target["id"].flatMap(Snapshotter.featureID), key: key)
        default:
            if let edit = StyleEdit(name: name, args: Array(args)) {
                self = .editStyle(edit)
            } else {
                self = .unsupported(name)
            }
        }
    }
}

/// The runtime-styling operations of the GL harness, carried out through `Snapshotter`'s API.
package enum StyleEdit {
    case setPaint(layer: String, name: String, value: JSON)
    case setLayout(layer: String, name: String, value: JSON)
    case setFilter(layer: String, filter: JSON)
    case setZoomRange(layer: String, min: JSON, max: JSON)
    case addLayer(JSON, before: String?)
    case removeLayer(String)
    case addSource(String, JSON)
    case removeSource(String)
    case setGlobalState(String, JSON)
    /// `setLight`: the properties named are replaced, the others kept.
    case setLight([String: JSON])
    case moveLayer(String, before: String?)
    case setGeoJSONData(String, JSON)
    case setSky(JSON)
    case setTerrain(JSON)
    case setProjection(JSON)

    package init?(name: String, args: [JSON]) {
        let s = args.map(\.stringValue)
        switch name {
        case "setPaintProperty" where args.count >= 3:
            guard let l = s[0], let n = s[1] else { return nil }
            self = .setPaint(layer: l, name: n, value: args[2])
        case "setLayoutProperty" where args.count >= 3:
            guard let l = s[0], let n = s[1] else { return nil }
            self = .setLayout(layer: l, name: n, value: args[2])
        case "setFilter" where args.count >= 1:
            guard let l = s[0] else { return nil }
            self = .setFilter(layer: l, filter: args.count > 1 ? args[1] : .null)
        case "setLayerZoomRange" where args.count >= 3:
            guard let l = s[0] else { return nil }
            self = .setZoomRange(layer: l, min: args[1], max: args[2])
        case "addLayer" where args.count >= 1 && args[0].objectValue != nil:
            self = .addLayer(args[0], before: args.count > 1 ? s[1] : nil)
        case "removeLayer" where args.count >= 1:
            guard let l = s[0] else { return nil }
            self = .removeLayer(l)
        case "addSource" where args.count >= 2:
            guard let id = s[0], args[1].objectValue != nil else { return nil }
            self = .addSource(id, args[1])
        case "removeSource" where args.count >= 1:
            guard let id = s[0] else { return nil }
            self = .removeSource(id)
        case "setLight" where args.count >= 1:
            guard let light = args[0].objectValue else { return nil }
            self = .setLight(light)
        case "moveLayer" where args.count >= 1:
            guard let id = s[0] else { return nil }
            self = .moveLayer(id, before: args.count > 1 ? s[1] : nil)
        case "setGeoJSONSourceData" where args.count >= 2:
            guard let id = s[0] else { return nil }
            self = .setGeoJSONData(id, args[1])
        case "setSky":
            self = .setSky(args.first ?? .null)
        case "setTerrain":
            self = .setTerrain(args.first ?? .null)
        case "setProjection":
            self = .setProjection(args.first ?? .null)
        case "setGlobalStateProperty" where args.count >= 2:
            guard let key = s[0] else { return nil }
            self = .setGlobalState(key, args[1])
        default:
            return nil
        }
    }

    /// The operation's name in the harness.
    package var name: String {
        switch self {
        case .setPaint: return "setPaintProperty"
        case .setLayout: return "setLayoutProperty"
        case .setFilter: return "setFilter"
        case .setZoomRange: return "setLayerZoomRange"
        case .addLayer: return "addLayer"
        case .removeLayer: return "removeLayer"
        case .moveLayer: return "moveLayer"
        case .addSource: return "addSource"
        case .removeSource: return "removeSource"
        case .setGeoJSONData: return "setGeoJSONSourceData"
        case .setLight: return "setLight"
        case .setSky: return "setSky"
        case .setTerrain: return "setTerrain"
        case .setProjection: return "setProjection"
        case .setGlobalState: return "setGlobalStateProperty"
        }
    }

    /// Carries the edit out through the snapshotter's runtime-styling API; a refused edit throws
    /// (GL JS reports it as an error event and draws on).
    package func apply(to snapshotter: Snapshotter) throws {
        switch self {
        case let .setPaint(l, n, v): try snapshotter.setPaintProperty(l, n, v)
        case let .setLayout(l, n, v): try snapshotter.setLayoutProperty(l, n, v)
        case let .setFilter(l, f): try snapshotter.setFilter(l, f == .null ? nil : f)
        case let .setZoomRange(l, lo, hi): try snapshotter.setLayerZoomRange(l, min: lo.numberValue, max: hi.numberValue)
        case let .addLayer(layer, before): try snapshotter.addLayer(layer, before: before)
        case .removeLayer(let id): try snapshotter.removeLayer(id)
        case let .moveLayer(id, before): try snapshotter.moveLayer(id, before: before)
        case let .addSource(id, source): try snapshotter.addSource(id, source)
        case .removeSource(let id): try snapshotter.removeSource(id)
        case let .setGeoJSONData(id, data): try snapshotter.setGeoJSONSourceData(id, data)
        case .setLight(let light): try snapshotter.setLight(.object(light))
        case .setSky(let sky): try snapshotter.setSky(sky == .null ? nil : sky)
        case .setTerrain(let terrain): try snapshotter.setTerrain(terrain == .null ? nil : terrain)
        case .setProjection(let projection): try snapshotter.setProjection(projection == .null ? nil : projection)
        case let .setGlobalState(key, value): try snapshotter.setGlobalStateProperty(key, value)
        }
    }
}

/// The camera values one `easeTo` (or `setRoll`, `setPadding`...) sets; nil ones stay.
package struct CameraStep {
    package var center: Coordinate?
    package var zoom, bearing, pitch, roll, fieldOfView: Double?
    /// `setCenterElevation` (meters) and `setCenterClampedToGround`.
    package var centerAltitude: Double?
    package var centerClampedToGround: Bool?
    /// Padding sides given (GL JS keeps the sides an edit leaves out).
    package var top, left, bottom, right: Double?

    package init(roll: Double? = nil, fieldOfView: Double? = nil) {
        self.roll = roll; self.fieldOfView = fieldOfView
    }

    /// From `easeTo`'s options (`center`, `zoom`, `bearing`, `pitch`, `roll`, `padding`, and the
    /// timing keys, which the end state does not need); nil for another key or a bad value.
    package init?(easeTo options: [String: JSON]) {
        for (key, value) in options {
            switch key {
            case "center":
                guard let c = value.arrayValue, c.count >= 2, let lon = c[0].finiteNumber, let lat = c[1].finiteNumber else { return nil }
                center = Coordinate(latitude: lat, longitude: lon)
            case "zoom": guard let v = value.finiteNumber else { return nil }; zoom = v
            case "bearing": guard let v = value.finiteNumber else { return nil }; bearing = v
            case "pitch": guard let v = value.finiteNumber else { return nil }; pitch = v
            case "roll": guard let v = value.finiteNumber else { return nil }; roll = v
            case "padding":
                if let all = value.finiteNumber {
                    (top, left, bottom, right) = (all, all, all, all)
                    continue
                }
                guard let sides = value.objectValue else { return nil }
                for (side, v) in sides {
                    guard let n = v.finiteNumber else { return nil }
                    switch side {
                    case "top": top = n
                    case "left": left = n
                    case "bottom": bottom = n
                    case "right": right = n
                    default: return nil
                    }
                }
            case "duration", "easing", "animate", "essential", "curve", "speed": continue
            default: return nil
            }
        }
    }

    /// `camera` with this step's values set.
    package func applied(to camera: CameraOptions) -> CameraOptions {
        var c = camera
        if let center { c.center = center }
        if let zoom { c.zoom = zoom }
        if let bearing { c.bearing = bearing }
        if let pitch { c.pitch = pitch }
        if let roll { c.roll = roll }
        if let fieldOfView { c.fieldOfView = fieldOfView }
        if let centerAltitude { c.centerAltitude = centerAltitude }
        if let centerClampedToGround { c.centerClampedToGround = centerClampedToGround }
        if let top { c.padding.top = top }
        if let left { c.padding.left = left }
        if let bottom { c.padding.bottom = bottom }
        if let right { c.padding.right = right }
        return c
    }
}
