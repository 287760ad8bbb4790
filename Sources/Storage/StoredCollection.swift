import Domain

/// The collections rowserver keeps. `samples` live under a track (`/v1/tracks/{id}/samples`).
public enum StoredCollection: String, CaseIterable, Sendable, Hashable, Codable {
    case products, departments, people, articles, documents, tracks, samples

    /// The id prefix of the collection's items.
    public var kind: EntityKind {
        switch self {
        case .products: .product
        case .departments: .department
        case .people: .person
        case .articles: .article
        case .documents: .document
        case .tracks: .track
        case .samples: .sample
        }
    }

    /// The sort fields clients may name in `sort=` (API names, camelCase), in the order the
    /// index publishes them. The store appends the id to every order, so orders are total.
    public var sortableFields: [String] {
        switch self {
        case .products: ["name", "price"]
        case .departments: ["name"]
        case .people: ["familyName", "givenName", "emailAddress"]
        case .articles: ["headline"]
        case .documents: ["title"]
        case .tracks: ["title"]
        case .samples: ["timestamp"]
        }
    }

    /// The order of a list when the client names none.
    public var defaultSort: [SortKey] {
        switch self {
        case .products: [SortKey("name")]
        case .departments: [SortKey("name")]
        case .people: [SortKey("familyName"), SortKey("givenName")]
        case .articles: [SortKey("headline")]
        case .documents: [SortKey("title")]
        case .tracks: [SortKey("title")]
        case .samples: [SortKey("timestamp")]
        }
    }
}
