import Domain
import Testing

/// An empty state's placeholders: which names a text uses, and how a state fills them.
@Suite("Empty state placeholders")
struct EmptyStateDefinitionTests {
    /// `{query}` and `{filters}` are filled in the title and the description, once: a query that
    /// reads like a placeholder stays as typed.
    @Test(arguments: [
        ("No {filters}", "filters", "Status: Open", "No Status: Open"),
        ("No {query}", "query", "{filters}", "No {filters}"),
        ("No {query} {{x}}", "query", "x", "No x {{x}}"),
        ("No {filters}", "query", "x", "No {filters}"),
    ])
    func emptyStatesFillTheirPlaceholderOnce(text: String, placeholder: String, value: String, shown: String) {
        let definition = EmptyStateDefinition(title: LocalizedText(text), description: LocalizedText(text), image: "tray")
        let state =
            placeholder == "query" ? definition.state(in: .enUS, query: value) : definition.state(in: .enUS, filters: value)
        #expect(state.title == shown)
        #expect(state.description == shown)
    }

    @Test(arguments: [
        ("No {filters} for {query}", ["filters", "query"]),
        ("{{braces}} and { spaced } and {1x} and {a_b}", ["braces"]),
        ("Nothing here", []),
        ("{open", []),
    ])
    func placeholdersAreNamesInBraces(text: String, names: [String]) {
        #expect(EmptyStateDefinition.placeholders(in: text) == names)
    }
}
