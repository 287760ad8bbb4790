import Foundation

/// What a list shows when it has no rows: the data behind SwiftUI's `ContentUnavailableView`.
///
/// `image` is an SF Symbols name hint. Each collection's definition gives its states
/// (``EmptyStateDefinition``): `empty`, `searchEmpty` (worded like the system's
/// `ContentUnavailableView.search(text:)`) and `filteredEmpty`.
public struct EmptyState: Hashable, Sendable, Codable {
    public var title: String
    public var description: String
    public var image: String

    public init(title: String, description: String, image: String) {
        self.title = title
        self.description = description
        self.image = image
    }

    /// Characters of the query quoted in a search's empty state; longer queries are cut with "…".
    public static let queryLimit = 48

    /// Characters of the filters a filtered list's empty state names; longer ones are cut with
    /// "…" (a `oneOf` filter may list 50 values of 500 characters).
    public static let filtersLimit = 120
}

extension EmptyStateDefinition {
    /// The placeholder a search's empty state offers: the search text.
    public static let queryPlaceholder = "query"
    /// The placeholder a filtered list's empty state offers: the filters (`FilterSummary`).
    public static let filtersPlaceholder = "filters"

    /// The state in `locale`, `{query}` (a search's state) or `{filters}` (a filtered list's) in
    /// its title and description replaced by the query trimmed and cut to
    /// ``EmptyState/queryLimit`` characters, or the filters cut to ``EmptyState/filtersLimit``
    /// (so a huge query cannot make a huge title). The text put in is never searched for
    /// placeholders itself: a query `{filters}` stays as typed.
    public func state(in locale: RenderLocale, query: String? = nil, filters: String? = nil) -> EmptyState {
        var values: [(name: String, value: String)] = []
        if let query { values.append((Self.queryPlaceholder, truncatedPreview(query, limit: EmptyState.queryLimit) ?? "")) }
        if let filters { values.append((Self.filtersPlaceholder, truncatedPreview(filters, limit: EmptyState.filtersLimit) ?? "")) }
        return EmptyState(
            title: Self.expanding(title[locale], values), description: Self.expanding(description[locale], values), image: image)
    }

    /// The names of the `{name}` placeholders in `text` (a letter, then letters and digits):
    /// what a definition's empty state is checked for. Other braces are text.
    public static func placeholders(in text: String) -> [String] {
        var names: [String] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            let name = after[..<close]
            if let first = name.first, first.isASCII, first.isLetter, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
                names.append(String(name))
                rest = after[after.index(after: close)...]
            } else {
                rest = after
            }
        }
        return names
    }

    /// `text` with each `{name}` of `values` replaced, in one pass.
    private static func expanding(_ text: String, _ values: [(name: String, value: String)]) -> String {
        guard !values.isEmpty, text.contains("{") else { return text }
        var result = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let after = rest[open...]
            if let match = values.first(where: { after.hasPrefix("{" + $0.name + "}") }) {
                result += match.value
                rest = after.dropFirst(match.name.count + 2)
            } else {
                result.append("{")
                rest = after.dropFirst()
            }
        }
        result += rest
        return result
    }
}
