import Domain

/// The folded text an item is sorted and searched by.
///
/// Title and subtitle are what the item's list row shows (`Product.row(in:)`, `Named.details`…),
/// folded with Domain's `searchFolded`, so "jose" finds "José" and "MECH" finds "Mechanical".
/// Only these two lines are searched: a match in a long description the row does not show
/// would surprise the person looking at the list.
struct SearchKeys: Hashable, Sendable {
    var title: String
    var subtitle: String?

    init(title: String, subtitle: String?) {
        self.title = searchFolded(title)
        self.subtitle = subtitle.map(searchFolded)
    }

    /// Nil for samples, whose rows are table rows with no title.
    static func of(_ item: StoredItem) -> SearchKeys? {
        switch item {
        case .product(let product): SearchKeys(title: product.name, subtitle: product.shortDescription)
        case .department(let department): SearchKeys(title: department.name, subtitle: nil)
        case .person(let person): SearchKeys(title: person.fullName, subtitle: person.phoneNumber)
        case .article(let article): SearchKeys(title: article.name, subtitle: article.details)
        case .document(let document): SearchKeys(title: document.name, subtitle: document.details)
        case .track(let track):
            SearchKeys(title: track.title, subtitle: track.channels.isEmpty ? nil : track.channels.map(\.name).joined(separator: ", "))
        case .sample: nil
        }
    }

    /// The search text of a query: folded and trimmed, nil when nothing is left.
    static func query(_ text: String?) -> String? {
        guard let text else { return nil }
        let folded = searchFolded(text.trimmingCharacters(in: .whitespacesAndNewlines))
        return folded.isEmpty ? nil : folded
    }
}
