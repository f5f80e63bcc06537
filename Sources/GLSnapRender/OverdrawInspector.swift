import Foundation

/// The overdraw inspector's program variants (`MapDebugOptions.overdraw`; GL JS's
/// `showOverdrawInspector`, MapLibre Native's `MapDebugOptions::Overdraw`): every fragment a
/// program writes is white, and `GLContext.overdrawInspector` blends it as a count
/// (`ColorMode.overdrawCounting`), so the image shows how often each pixel was drawn.
///
/// GL JS writes `#ifdef OVERDRAW_INSPECTOR fragColor = vec4(1.0); #endif` at the end of each
/// fragment shader; here the variant wraps the shader's `main` instead, so no shader has to
/// remember it: the original runs (its `discard`s still drop fragments), then the output is set.
enum OverdrawInspector {
    /// The define the variant is compiled with, as GL JS names it.
    static let define = "OVERDRAW_INSPECTOR"

    /// `source` (a fragment shader writing `fragColor` from one `void main()`) with its output
    /// forced to opaque white.
    static func fragment(_ source: String) -> String {
        let entry = "void main()"
        precondition(source.contains(entry) && source.contains("fragColor"),
                     "the overdraw variant needs a fragment shader with \(entry) writing fragColor")
        let renamed = source.replacingOccurrences(of: entry, with: "void overdraw_inspected_main()")
        return "#define \(define)\n" + renamed + "\n\(entry) {\n    overdraw_inspected_main();\n    fragColor = vec4(1.0);\n}\n"
    }
}

extension MapRenderer {
    /// Turns the inspector's programs and blending on or off for the draws that follow.
    func inspectOverdraw(_ on: Bool) {
        programs.overdrawInspector = on
        context.overdrawInspector = on
    }
}
