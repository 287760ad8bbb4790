import Foundation

/// What a list shows when it has no rows: the data behind SwiftUI's `ContentUnavailableView`.
///
/// `image` is an SF Symbols name hint. Each collection's definition gives its states
/// (``EmptyStateDefinition``), the search miss worded like the system's `ContentUnavailableView.search(text:)`.
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
}

extension EmptyStateDefinition {
    /// The state in `locale`; for a search's empty state, `{query}` in the title stands for the
    /// query trimmed and cut to ``EmptyState/queryLimit`` characters (so a huge query cannot make
    /// a huge title).
    public func state(in locale: RenderLocale, query: String? = nil) -> EmptyState {
        var title = title[locale]
        if let query {
            title = title.replacingOccurrences(of: "{query}", with: truncatedPreview(query, limit: EmptyState.queryLimit) ?? "")
        }
        return EmptyState(title: title, description: description[locale], image: image)
    }
}
