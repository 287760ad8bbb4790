import Definitions
import DemoData
import Domain
import Foundation
import Storage

/// A catalog store on a new file, and walks through its pages.
extension TemporaryDirectory {
    func catalogStore(_ name: String = "catalog.sqlite", catalog: Catalog, seed: Bool = false, retention: Int = 100_000) throws -> CatalogStore {
        try CatalogStore(
            path: path(name), catalog: catalog, options: .init(seedItems: seed ? DemoData.standardItems : nil, changeRetention: retention))
    }
}

extension CatalogStore {
    /// Every page of `query` from the first, following `nextAfter`.
    func walk(_ query: CatalogQuery) throws -> [Versioned<Item>] {
        var query = query
        var items: [Versioned<Item>] = []
        while true {
            let page = try page(query)
            items += page.items
            guard let next = page.nextAfter else { return items }
            query.after = next
        }
    }
}

enum CatalogFixtures {
    static func tickets() throws -> Catalog {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/tickets.yaml")
        return try DefinitionLoader.load(path: url.standardized.path)
    }

    static func collection(_ catalog: Catalog, _ name: String) throws -> CollectionDefinition {
        guard let collection = catalog.collection(named: name) else { throw StoreError.unavailable("no \(name)") }
        return collection
    }
}
