/// Where one collection lives: its table, the columns an item is made of, and its sort columns.
///
/// Internal: the API names fields (`familyName`), the store maps them to columns here, so column
/// names never reach SQL from outside.
struct CollectionTable: Sendable {
    let collection: StoredCollection
    /// The SQL table.
    let name: String
    /// The item's columns after `id` and `version`, in the order `ItemColumns` encodes and decodes.
    let columns: [String]
    /// API sort field → column.
    let sortColumns: [String: OrderColumn]
    /// `INSERT` of `id, version, columns…`; `UPDATE` of `version, columns…` by id; `SELECT` by id.
    /// Built once: the writer runs them per item, and the statement cache is keyed by the SQL.
    let insertSQL: String
    let updateSQL: String
    let selectByIDSQL: String
    /// `version, pk, title_key, subtitle_key` of the row with an id (NULL keys for samples).
    let currentRowSQL: String

    init(collection: StoredCollection, name: String, columns: [String], sortColumns: [String: OrderColumn]) {
        self.collection = collection
        self.name = name
        self.columns = columns
        self.sortColumns = sortColumns
        let all = ["id", "version"] + columns
        insertSQL =
            "INSERT INTO \(name) (\(all.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: all.count).joined(separator: ", ")))"
        updateSQL = "UPDATE \(name) SET \((["version"] + columns).map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?"
        let keys = collection == .samples ? "NULL, NULL" : "title_key, subtitle_key"
        currentRowSQL = "SELECT version, pk, \(keys) FROM \(name) WHERE id = ?"
        selectByIDSQL = "SELECT \(all.map { "t.\($0)" }.joined(separator: ", ")) FROM \(name) AS t WHERE t.id = ?"
    }
    /// The FTS5 table over `title_key`/`subtitle_key`; nil for samples, which have no title.
    var searchTable: String? { collection == .samples ? nil : "\(name)_search" }

    /// A column of an order, with the kind of value a keyset position holds for it.
    struct OrderColumn: Sendable, Hashable {
        let column: String
        let isText: Bool
    }

    static func of(_ collection: StoredCollection) -> CollectionTable {
        switch collection {
        case .products: products
        case .departments: departments
        case .people: people
        case .articles: articles
        case .documents: documents
        case .tracks: tracks
        case .samples: samples
        }
    }

    /// `id, version, columns…`, qualified with the alias `t`.
    var selectList: String {
        (["id", "version"] + columns).map { "t.\($0)" }.joined(separator: ", ")
    }

    private static func text(_ column: String) -> OrderColumn { OrderColumn(column: column, isText: true) }
    private static func integer(_ column: String) -> OrderColumn { OrderColumn(column: column, isText: false) }

    static let products = CollectionTable(
        collection: .products, name: "products",
        columns: ["name", "short_description", "long_description", "price_minor", "currency", "title_key", "subtitle_key"],
        sortColumns: ["name": text("title_key"), "price": integer("price_minor")])

    static let departments = CollectionTable(
        collection: .departments, name: "departments",
        columns: ["name", "title_key", "subtitle_key"],
        sortColumns: ["name": text("title_key")])

    static let people = CollectionTable(
        collection: .people, name: "people",
        columns: [
            "given_name", "family_name", "email_address", "phone_number", "department_id", "department_key",
            "family_key", "given_key", "email_key", "title_key", "subtitle_key",
        ],
        sortColumns: ["familyName": text("family_key"), "givenName": text("given_key"), "emailAddress": text("email_key")])

    static let articles = CollectionTable(
        collection: .articles, name: "articles",
        columns: ["headline", "markdown", "title_key", "subtitle_key"],
        sortColumns: ["headline": text("title_key")])

    static let documents = CollectionTable(
        collection: .documents, name: "documents",
        columns: ["title", "body", "title_key", "subtitle_key"],
        sortColumns: ["title": text("title_key")])

    static let tracks = CollectionTable(
        collection: .tracks, name: "tracks",
        columns: ["title", "channels", "title_key", "subtitle_key"],
        sortColumns: ["title": text("title_key")])

    static let samples = CollectionTable(
        collection: .samples, name: "samples",
        columns: ["track_id", "timestamp_ms", "levels"],
        sortColumns: ["timestamp": integer("timestamp_ms")])

    /// People grouped into sections: department name order, then department id so two
    /// departments of one name never interleave.
    static let sectionColumns = [text("department_key"), text("department_id")]
}
