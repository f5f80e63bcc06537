import Foundation

/// Selects case ids ("category/case") by shell globs. A pattern list may hold several
/// comma-separated globs; a case is selected when any of them matches. A glob without '/' is
/// matched against the category alone (so `line-*` selects every case of every line category),
/// one with '/' against the whole id. No patterns select everything.
struct CaseFilter {
    let patterns: [String]

    init(_ specs: [String]) {
        patterns = specs.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// Whether the case `category/name` is selected.
    func matches(category: String, name: String) -> Bool {
        if patterns.isEmpty { return true }
        let id = category.isEmpty ? name : "\(category)/\(name)"
        for p in patterns {
            if p.contains("/") {
                if CaseFilter.glob(p, id) { return true }
            } else if CaseFilter.glob(p, category.isEmpty ? name : category) || CaseFilter.glob(p, id) {
                return true
            }
        }
        return false
    }

    /// fnmatch(3) with `*` not crossing '/'.
    static func glob(_ pattern: String, _ text: String) -> Bool {
        fnmatch(pattern, text, FNM_PATHNAME) == 0
    }
}
