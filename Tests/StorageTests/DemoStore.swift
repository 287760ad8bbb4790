import Definitions
import DemoData
import Domain
import Foundation
import GRDB
import Testing

@testable import Storage

/// The demo's collections, typed, for the store tests written against the demo's models: each
/// call goes to a `CatalogStore` of the demo definition, with items mapped by `DemoItems` and back.
enum StoredCollection: String, CaseIterable, Sendable, Hashable {
    case products, departments, people, articles, documents, tracks, samples

    static let catalog: Catalog = {
        do {
            return try DefinitionLoader.demo()
        } catch {
            preconditionFailure("the demo definition does not load: \(error)")
        }
    }()

    var definition: CollectionDefinition {
        guard let definition = Self.catalog.collection(named: rawValue) else { preconditionFailure("no \(rawValue)") }
        return definition
    }

    var kind: EntityKind { definition.kind }
    var sortableFields: [String] { definition.sorts.map(\.name) }
    var defaultSort: [SortKey] { definition.defaultSort }
}

/// A demo model of any collection.
enum StoredItem: Sendable, Hashable {
    case product(Product)
    case department(Department)
    case person(Person)
    case article(Article)
    case document(Document)
    case track(Track)
    case sample(AudioSample)

    var id: EntityID {
        switch self {
        case .product(let item): item.id
        case .department(let item): item.id
        case .person(let item): item.id
        case .article(let item): item.id
        case .document(let item): item.id
        case .track(let item): item.id
        case .sample(let item): item.id
        }
    }

    var collection: StoredCollection {
        switch self {
        case .product: .products
        case .department: .departments
        case .person: .people
        case .article: .articles
        case .document: .documents
        case .track: .tracks
        case .sample: .samples
        }
    }

    var item: Item {
        let definition = collection.definition
        switch self {
        case .product(let model): return DemoItems.product(model, in: definition)
        case .department(let model): return DemoItems.department(model, in: definition)
        case .person(let model): return DemoItems.person(model, in: definition)
        case .article(let model): return DemoItems.article(model, in: definition)
        case .document(let model): return DemoItems.document(model, in: definition)
        case .track(let model): return DemoItems.track(model, in: definition)
        case .sample(let model): return DemoItems.sample(model, in: definition)
        }
    }

    /// The model an item of `collection` holds.
    init(_ item: Item, in collection: StoredCollection) {
        let definition = collection.definition
        func text(_ name: String) -> String { item.value(of: name, in: definition).text ?? "" }
        func reference(_ name: String) -> EntityID {
            item.value(of: name, in: definition).reference ?? EntityID(kind: .department, timestampMilliseconds: 0, randomBits: 0)
        }
        switch collection {
        case .products:
            guard case .money(let price) = item.value(of: "price", in: definition) else { preconditionFailure("a product without a price") }
            self = .product(
                Product(
                    id: item.id, name: text("name"), shortDescription: text("shortDescription"), longDescription: text("longDescription"),
                    price: price))
        case .departments: self = .department(Department(id: item.id, name: text("name")))
        case .people:
            self = .person(
                Person(
                    id: item.id, givenName: text("givenName"), familyName: text("familyName"), emailAddress: text("emailAddress"),
                    phoneNumber: text("phoneNumber"), departmentID: reference("departmentID")))
        case .articles: self = .article(Article(id: item.id, headline: text("headline"), markdown: text("markdown")))
        case .documents: self = .document(Document(id: item.id, title: text("title"), body: text("body")))
        case .tracks:
            let channels = item.value(of: "channels", in: definition).names ?? []
            self = .track(Track(id: item.id, title: text("title"), channels: channels.map { AudioChannel(id: $0.id, name: $0.name) }))
        case .samples:
            var levels: [Double] = []
            if case .numbers(let numbers) = item.value(of: "levels", in: definition) { levels = numbers }
            self = .sample(
                AudioSample(
                    id: item.id, trackID: reference("trackID"),
                    timestampMilliseconds: item.value(of: "timestampMilliseconds", in: definition).integer ?? 0,
                    levels: levels))
        }
    }
}

/// A page request in the demo's terms.
struct ListQuery: Sendable, Hashable, CustomTestStringConvertible {
    var collection: StoredCollection
    var sort: [SortKey]
    var filters: [ListFilter]
    var search: String?
    var groupByDepartment: Bool
    var parent: EntityID?
    var after: [SortValue]?
    var limit: Int

    init(
        collection: StoredCollection, sort: [SortKey]? = nil, filters: [ListFilter] = [], search: String? = nil, groupByDepartment: Bool = false,
        parent: EntityID? = nil, after: [SortValue]? = nil, limit: Int = 50
    ) {
        self.collection = collection
        self.sort = sort ?? collection.defaultSort
        self.filters = filters
        self.search = search
        self.groupByDepartment = groupByDepartment
        self.parent = parent
        self.after = after
        self.limit = limit
    }

    var testDescription: String { "\(collection.rawValue) sort=\(sort.map(\.field)) after=\(String(describing: after))" }

    var catalogQuery: CatalogQuery {
        let definition = collection.definition
        // A filter the collection does not have names no field: the store refuses it.
        let conditions = filters.map { filter -> FieldCondition in
            switch filter {
            case .department(let id):
                FieldCondition(field: definition.fieldIndex(named: "departmentID") ?? -1, operation: .equals, values: [.reference(id)])
            case .minPrice(let money):
                FieldCondition(field: definition.fieldIndex(named: "price") ?? -1, operation: .atLeast, values: [.money(money)])
            case .maxPrice(let money):
                FieldCondition(field: definition.fieldIndex(named: "price") ?? -1, operation: .atMost, values: [.money(money)])
            }
        }
        return CatalogQuery(
            collection: definition, sort: sort, conditions: conditions, search: search, sections: groupByDepartment, parent: parent, after: after,
            limit: limit)
    }
}

enum ListFilter: Sendable, Hashable {
    case department(EntityID)
    /// Within the amount's currency.
    case minPrice(Money)
    case maxPrice(Money)
}

struct Page {
    var items: [Versioned<StoredItem>]
    var nextAfter: [SortValue]?
    /// The departments of a people page, by id (section headers).
    var departments: [EntityID: Department]
}

struct Change {
    var collection: StoredCollection
    var sequence: Int64
    var id: EntityID
    var operation: ChangeOperation
    var item: Versioned<StoredItem>?
}

struct ChangeBatch {
    var changes: [Change]
    var hasMore: Bool
    var resumeAfter: Int64
}

/// A `CatalogStore` of the demo definition, spoken to in the demo's models.
final class DemoStore: Sendable {
    let store: CatalogStore

    init(path: String, options: CatalogStore.Options = .init()) throws {
        store = try CatalogStore(path: path, catalog: StoredCollection.catalog, options: options)
    }

    func item(_ collection: StoredCollection, id: EntityID) throws -> Versioned<StoredItem>? {
        try store.item(collection.rawValue, id: id).map { Versioned(item: StoredItem($0.item, in: collection), version: $0.version) }
    }

    func page(_ query: ListQuery) throws -> Page {
        let page = try store.page(query.catalogQuery)
        var departments: [EntityID: Department] = [:]
        if query.collection == .people {
            for item in page.items {
                guard case .person(let person) = StoredItem(item.item, in: .people), let department = page.references[person.departmentID] else {
                    continue
                }
                if case .department(let model) = StoredItem(department, in: .departments) { departments[model.id] = model }
            }
        }
        return Page(
            items: page.items.map { Versioned(item: StoredItem($0.item, in: query.collection), version: $0.version) }, nextAfter: page.nextAfter,
            departments: departments)
    }

    func version(of collection: StoredCollection) throws -> Int64 { try store.version(of: collection.rawValue) }
    func latestSequence() throws -> Int64 { try store.latestSequence() }
    var writeCounters: WriteCounters { store.writeCounters }
    var path: String { store.path }
    func close() throws { try store.close() }
    func checkHealth() throws { try store.checkHealth() }

    func changes(_ collection: StoredCollection, after sequence: Int64, limit: Int) throws -> ChangeBatch {
        let batch = try store.changes(collection.rawValue, after: sequence, limit: limit)
        return ChangeBatch(
            changes: batch.changes.map { change in
                Change(
                    collection: collection, sequence: change.sequence, id: change.id, operation: change.operation,
                    item: change.item.map { Versioned(item: StoredItem($0.item, in: collection), version: $0.version) })
            }, hasMore: batch.hasMore, resumeAfter: batch.resumeAfter)
    }

    @discardableResult
    func insert(_ item: StoredItem) async throws(StoreError) -> Versioned<StoredItem> {
        let written = try await store.insert(item.item, into: item.collection.rawValue)
        return Versioned(item: StoredItem(written.item, in: item.collection), version: written.version)
    }

    @discardableResult
    func update(_ item: StoredItem, ifVersion: Int64?) async throws(StoreError) -> Versioned<StoredItem> {
        let written = try await store.update(item.item, in: item.collection.rawValue, ifVersion: ifVersion)
        return Versioned(item: StoredItem(written.item, in: item.collection), version: written.version)
    }

    func delete(_ collection: StoredCollection, id: EntityID, ifVersion: Int64?) async throws(StoreError) {
        try await store.delete(id, from: collection.rawValue, ifVersion: ifVersion)
    }

    /// Inserts models in one transaction: all of them or none.
    @discardableResult
    func bulkLoad<T>(_ body: (DemoLoader) throws -> T) throws -> T {
        try store.bulkLoad { loader in try body(DemoLoader(loader: loader)) }
    }

    /// Rows in a collection's table, counted directly.
    func count(_ collection: StoredCollection) throws -> Int {
        try store.pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM items_\(collection.rawValue)") ?? 0 }
    }

    /// Change-log entries of a collection, counted directly.
    func count(changesIn collection: StoredCollection) throws -> Int {
        try store.pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM changes WHERE collection = ?", arguments: [collection.rawValue]) ?? 0 }
    }

    /// Every item of a collection by walking pages in the default order (samples: every track's).
    func all(_ collection: StoredCollection, sort: [SortKey]? = nil, limit: Int = 37) throws -> [Versioned<StoredItem>] {
        if collection == .samples {
            return try all(.tracks).flatMap { track in
                try walk(ListQuery(collection: .samples, sort: sort, parent: track.item.id, limit: limit))
            }
        }
        return try walk(ListQuery(collection: collection, sort: sort, limit: limit))
    }

    /// Every page of `query`, concatenated.
    func walk(_ query: ListQuery) throws -> [Versioned<StoredItem>] {
        var query = query
        var items: [Versioned<StoredItem>] = []
        while true {
            let page = try page(query)
            items += page.items
            guard let next = page.nextAfter else { return items }
            query.after = next
        }
    }
}

/// The folded texts search reads, as the store indexes them.
struct SearchKeys {
    var title: String
    var subtitle: String?

    static func of(_ item: StoredItem) -> SearchKeys? {
        let definition = item.collection.definition
        guard definition.isSearchable else { return nil }
        let texts = ItemRenderer(collection: definition, catalog: StoredCollection.catalog).searchTexts(of: item.item, references: .none)
        return SearchKeys(title: searchFolded((texts.first ?? nil) ?? ""), subtitle: texts.count > 1 ? texts[1].map(searchFolded) : nil)
    }
}

/// A bulk load in the demo's models.
struct DemoLoader {
    let loader: CatalogBulkLoader

    func insert(_ item: StoredItem) throws { try loader.insert(item.item, into: item.collection.rawValue) }
    var insertedCount: Int { loader.insertedCount }
}

extension DemoDataset {
    /// Every demo model, referenced ones first.
    var storedItems: [StoredItem] {
        departments.map(StoredItem.department) + people.map(StoredItem.person) + products.map(StoredItem.product)
            + articles.map(StoredItem.article) + documents.map(StoredItem.document) + tracks.map(StoredItem.track) + samples.map(StoredItem.sample)
    }
}

/// `rowserver import` on a demo collection.
struct JSONLImporter {
    typealias BadLine = CatalogImporter.BadLine
    typealias Failure = CatalogImporter.Failure
    typealias Progress = CatalogImporter.Progress
    var collection: StoredCollection
    var reportLimit = 20

    init(collection: StoredCollection, reportLimit: Int = 20) {
        self.collection = collection
        self.reportLimit = reportLimit
    }

    func run(path: String, into store: DemoStore, progress: (Progress) -> Void = { _ in }) throws(CatalogImporter.Failure) -> Int {
        try CatalogImporter(collection: collection.definition, catalog: StoredCollection.catalog, reportLimit: reportLimit).run(
            path: path, into: store.store, progress: progress)
    }
}
