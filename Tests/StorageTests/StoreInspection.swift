import Domain
import GRDB

@testable import Storage

extension SQLiteStore {
    /// Rows in a collection's table, counted directly.
    func count(_ collection: StoredCollection) throws -> Int {
        let table = CollectionTable.of(collection).name
        return try pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(table)") ?? 0 }
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
