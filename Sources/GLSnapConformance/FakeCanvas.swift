import GLSnapStyle

/// `metadata.test.addFakeCanvas` (`{"id", "image"}`): the GL JS harness draws the image into a
/// canvas element with that id, which a `canvas` source of the style then shows. glsnap has no
/// canvas (nor a page to hold one), so each such source becomes the `image` source it amounts to:
/// the same picture on the same four coordinates. Cases without a fake canvas keep their text.
enum FakeCanvas {
    /// `text` with every `canvas` source that names the case's fake canvas made an image source of
    /// its picture (a URL relative to the suite folder, as the harness reads it).
    static func imageSources(_ text: String, style: JSON) -> String {
        guard let fake = style["metadata"]?["test"]?["addFakeCanvas"], let id = fake["id"]?.stringValue,
              let image = fake["image"]?.stringValue, case .object(var root) = style,
              case .object(var sources)? = root["sources"] else { return text }
        var changed = false
        for (name, source) in sources {
            guard source["type"]?.stringValue == "canvas", source["canvas"]?.stringValue == id,
                  let coordinates = source["coordinates"] else { continue }
            sources[name] = .object(["type": .string("image"), "url": .string(image), "coordinates": coordinates])
            changed = true
        }
        guard changed else { return text }
        root["sources"] = .object(sources)
        return JSON.object(root).text
    }
}
