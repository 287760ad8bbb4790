/// What a list shows when it has no rows: the data behind SwiftUI's `ContentUnavailableView`.
///
/// `image` is an SF Symbols name hint. Search misses use ``noResults(query:)``, worded like the
/// system's `ContentUnavailableView.search(text:)`.
public struct EmptyState: Hashable, Sendable, Codable {
    public var title: String
    public var description: String
    public var image: String

    public init(title: String, description: String, image: String) {
        self.title = title
        self.description = description
        self.image = image
    }

    /// The state of an empty collection of `kind`, e.g. "No Products" / "Products you add appear here.".
    public static func empty(collection kind: EntityKind) -> EmptyState {
        switch kind {
        case .product: EmptyState(title: "No Products", description: "Products you add appear here.", image: "shippingbox")
        case .department:
            EmptyState(title: "No Departments", description: "Departments you add appear here.", image: "building.2")
        case .person: EmptyState(title: "No People", description: "People you add appear here.", image: "person.2")
        case .article:
            // The seed's own example.
            EmptyState(title: "No Articles", description: "Articles you save will appear here.", image: "doc.richtext.fill")
        case .document: EmptyState(title: "No Documents", description: "Documents you create appear here.", image: "doc.text")
        case .track: EmptyState(title: "No Tracks", description: "Tracks you add appear here.", image: "waveform")
        case .sample:
            EmptyState(title: "No Samples", description: "Samples recorded on this track appear here.", image: "waveform.path")
        case .channel:
            EmptyState(title: "No Channels", description: "Channels of this track appear here.", image: "speaker.wave.2")
        default: EmptyState(title: "No Items", description: "Items you add appear here.", image: "tray")
        }
    }

    /// Characters of the query quoted in the title; longer queries are cut with "…".
    public static let queryLimit = 48

    /// The search miss: `No Results for “query”`, with the system's description and magnifying glass.
    ///
    /// The query is trimmed and cut to ``queryLimit`` characters so a huge query cannot make a
    /// huge title; a blank query reads just "No Results".
    public static func noResults(query: String) -> EmptyState {
        let title = truncatedPreview(query, limit: queryLimit).map { "No Results for \u{201C}\($0)\u{201D}" } ?? "No Results"
        return EmptyState(title: title, description: "Check the spelling or try a new search.", image: "magnifyingglass")
    }
}
