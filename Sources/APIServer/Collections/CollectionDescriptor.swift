import Domain
import Storage

/// What the index (`GET /v1`) says about a collection, and what its list endpoint accepts.
struct CollectionDescriptor: Sendable {
    /// A filter parameter of the list endpoint.
    struct Filter: Sendable {
        enum Kind: Sendable {
            case entityID(EntityKind)
            case minorUnits
        }
        var name: String
        var kind: Kind
        var description: String
    }

    var collection: StoredCollection
    var title: String
    var filters: [Filter]
    var offersSections: Bool
    var offersTable: Bool
    /// Whether `q=` searches this list (samples show numbers only: nothing to search).
    var offersSearch = true

    var path: String { "/v1/\(collection.rawValue)" }

    /// The top-level collections in the order the index lists them. Samples are listed under
    /// their track (`/v1/tracks/{id}/samples`), not here.
    static let all: [CollectionDescriptor] = [
        CollectionDescriptor(
            collection: .products, title: "Products",
            filters: [
                Filter(name: "minPrice", kind: .minorUnits, description: "Products priced at least this, in minor units (cents)."),
                Filter(name: "maxPrice", kind: .minorUnits, description: "Products priced at most this, in minor units (cents)."),
            ],
            offersSections: false, offersTable: true),
        CollectionDescriptor(collection: .departments, title: "Departments", filters: [], offersSections: false, offersTable: false),
        CollectionDescriptor(
            collection: .people, title: "People",
            filters: [Filter(name: "department", kind: .entityID(.department), description: "People of one department, by its id.")],
            offersSections: true, offersTable: true),
        CollectionDescriptor(collection: .articles, title: "Articles", filters: [], offersSections: false, offersTable: false),
        CollectionDescriptor(collection: .documents, title: "Documents", filters: [], offersSections: false, offersTable: false),
        CollectionDescriptor(collection: .tracks, title: "Tracks", filters: [], offersSections: false, offersTable: false),
    ]

    static let samples = CollectionDescriptor(
        collection: .samples, title: "Samples", filters: [], offersSections: false, offersTable: true, offersSearch: false)

    static func named(_ name: String) -> CollectionDescriptor? {
        all.first { $0.collection.rawValue == name }
    }

    /// The table's columns are sortable exactly when the store can sort by them.
    func isSortable(_ columnID: String) -> Bool {
        collection.sortableFields.contains(columnID)
    }
}
