import Testing

@testable import Domain

@Suite("Empty states")
struct EmptyStateTests {
    @Test(
        "each collection has its own empty state",
        arguments: [
            (EntityKind.product, EmptyState(title: "No Products", description: "Products you add appear here.", image: "shippingbox")),
            (.person, EmptyState(title: "No People", description: "People you add appear here.", image: "person.2")),
            (.department, EmptyState(title: "No Departments", description: "Departments you add appear here.", image: "building.2")),
            (.article, EmptyState(title: "No Articles", description: "Articles you save will appear here.", image: "doc.richtext.fill")),
            (.document, EmptyState(title: "No Documents", description: "Documents you create appear here.", image: "doc.text")),
            (.track, EmptyState(title: "No Tracks", description: "Tracks you add appear here.", image: "waveform")),
            (.sample, EmptyState(title: "No Samples", description: "Samples recorded on this track appear here.", image: "waveform.path")),
            (.channel, EmptyState(title: "No Channels", description: "Channels of this track appear here.", image: "speaker.wave.2")),
        ]
    )
    func emptyCollection(kind: EntityKind, expected: EmptyState) {
        #expect(EmptyState.empty(collection: kind) == expected)
    }

    @Test(
        "a search without results reads like the system's search variant",
        arguments: [
            ("keyboard", "No Results for \u{201C}keyboard\u{201D}"),
            ("  José  ", "No Results for \u{201C}José\u{201D}"),
            ("", "No Results"),
            (" \n", "No Results"),
            (String(repeating: "q", count: 100), "No Results for \u{201C}" + String(repeating: "q", count: 48) + "\u{2026}\u{201D}"),
        ]
    )
    func noResults(query: String, title: String) {
        #expect(
            EmptyState.noResults(query: query)
                == EmptyState(title: title, description: "Check the spelling or try a new search.", image: "magnifyingglass")
        )
    }
}
