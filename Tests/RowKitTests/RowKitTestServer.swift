import Domain
import Foundation
import RowKit
import ServerTestSupport
import Storage

/// rowserver on an ephemeral port over a store of its own with the demo data
/// (`LiveStoreApplication`), and a RowKit client of it.
final class RowKitTestServer: Sendable {
    let live: LiveStoreApplication
    var store: any ItemStore { live.store }
    let client: RowClient
    /// A key with the write scope, which both clients send.
    var key: String { live.writeKey }

    init(changeRetention: Int = 100_000) throws {
        live = try LiveStoreApplication(changeRetention: changeRetention)
        client = RowClient(baseURL: URL(string: "http://127.0.0.1:\(live.port)")!, key: live.writeKey)
    }

    /// Another app's client of the same server.
    func secondClient() -> RowClient {
        RowClient(baseURL: URL(string: "http://127.0.0.1:\(live.port)")!, key: key)
    }

    /// The ids of a collection's items in the store's default order, read from the store itself.
    func storeOrder(_ collection: String) throws -> [String] {
        guard let definition = store.catalog.collection(named: collection) else { throw StoreError.unavailable("no \(collection)") }
        var ids: [String] = []
        var after: [SortValue]?
        repeat {
            let page = try store.page(CatalogQuery(collection: definition, after: after, limit: 1_000))
            ids += page.items.map(\.item.id.rawValue)
            after = page.nextAfter
        } while after != nil
        return ids
    }
}
