import CFriBidi
import GLSnapStyle

/// Arabic joining as MapLibre's RTL support does it (ICU's `u_shapeArabic` with letter shaping):
/// each letter becomes its isolated, initial, medial or final presentation form (U+FE70-U+FEFF)
/// by its neighbours' joining types, and lam + alef becomes one ligature. The glyph PBFs hold
/// these forms, so the shaped code points are what is looked up. FriBidi does the joining.
enum ArabicShaping {
    /// FriBidi puts this where a ligature swallowed a letter (U+FEFF); ICU's default shrinks the
    /// text instead, so it is dropped.
    static let ligatureFill: UInt32 = 0xFEFF

    /// Whether `cps` has anything to shape: letters of the Arabic blocks that join.
    static func needsShaping(_ cps: [UInt32]) -> Bool {
        cps.contains { (0x0600...0x08FF).contains($0) }
    }

    /// `cps` in presentation forms; the same array when nothing joins.
    static func shape(_ cps: [UInt32]) -> [UInt32] {
        guard needsShaping(cps), let count = FriBidiStrIndex(exactly: cps.count) else { return cps }
        var text = cps.map { FriBidiChar($0) }
        var types = [FriBidiCharType](repeating: FriBidiCharType(0), count: cps.count)
        var brackets = [FriBidiBracketType](repeating: 0, count: cps.count)
        var levels = [FriBidiLevel](repeating: 0, count: cps.count)
        var joining = [FriBidiArabicProp](repeating: 0, count: cps.count)
        var base = BidiText.autoDirection
        fribidi_get_bidi_types(text, count, &types)
        fribidi_get_bracket_types(text, count, types, &brackets)
        // Joining and ligatures need the embedding levels (letters join within one level).
        guard fribidi_get_par_embedding_levels_ex(types, brackets, count, &base, &levels) > 0 else { return cps }
        fribidi_get_joining_types(text, count, &joining)
        fribidi_join_arabic(types, count, levels, &joining)
        fribidi_shape_arabic(FriBidiFlags(FRIBIDI_FLAG_SHAPE_ARAB_PRES | FRIBIDI_FLAG_SHAPE_ARAB_LIGA), levels, count, &joining, &text)
        var out: [UInt32] = []
        out.reserveCapacity(text.count)
        for (i, c) in text.enumerated() where !(c == ligatureFill && cps[i] != ligatureFill) { out.append(UInt32(c)) }
        return out
    }
}
