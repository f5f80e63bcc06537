import Foundation

/// Selects case ids ("category/case") by shell globs. A pattern list may hold several
/// comma-separated globs. A glob without '/' is matched against the category alone (so `line-*`
/// selects every case of every line category), one with '/' against the whole id (and in a suite
/// without categories, every glob matches the case name). A glob starting with '!' excludes what
/// it matches. A case is selected when it matches some including glob (or there are none) and no
/// excluding one: `fill-*,!fill-pattern` is every fill category but fill-pattern.
package struct CaseFilter {
    package let include: [String]
    package let exclude: [String]

    package init(_ specs: [String]) {
        let patterns = specs.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        include = patterns.filter { !$0.hasPrefix("!") }
        exclude = patterns.filter { $0.hasPrefix("!") }.map { String($0.dropFirst()) }.filter { !$0.isEmpty }
    }

    /// Whether the case `category/name` (or `name` when `category` is empty) is selected.
    package func matches(category: String, name: String) -> Bool {
        let id = category.isEmpty ? name : "\(category)/\(name)"
        func hit(_ p: String) -> Bool {
            CaseFilter.glob(p, p.contains("/") || category.isEmpty ? id : category)
        }
        if !include.isEmpty && !include.contains(where: hit) { return false }
        return !exclude.contains(where: hit)
    }

    /// fnmatch(3); `*` crosses '/', so `line-dasharray/*` also selects nested cases.
    package static func glob(_ pattern: String, _ text: String) -> Bool {
        fnmatch(pattern, text, 0) == 0
    }
}
