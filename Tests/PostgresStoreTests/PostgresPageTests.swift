import Definitions
import Domain
import Foundation
import Testing

@testable import Storage

/// A PostgreSQL page is one statement (`CatalogPageQuery.seekStatement`: a positioned page's
/// statements as one union, its LIMIT written in): walked page by page, every order, section
/// rule and search gives the rows the SQLite store gives, in the same order, each once.
@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.missingReason))
struct PostgresPageTests {
    struct Walk: Sendable, CustomTestStringConvertible {
        let collection: String
        let sort: [SortKey]?
        var sections = false
        var search: String? = nil
        let limit: Int
        var testDescription: String { "\(collection) \(sort ?? []) sections \(sections) q \(search ?? "-") limit \(limit)" }
    }

    static let walks: [Walk] = [
        Walk(collection: "products", sort: nil, limit: 7),
        Walk(collection: "products", sort: [SortKey("price", descending: true)], limit: 1),
        Walk(collection: "products", sort: [SortKey("price", descending: true)], limit: 6),
        Walk(collection: "products", sort: [SortKey("price", descending: false)], limit: 50),
        Walk(collection: "products", sort: nil, search: "a", limit: 4),
        Walk(collection: "products", sort: nil, search: "nothing like it", limit: 4),
        Walk(collection: "people", sort: nil, sections: true, limit: 5),
        Walk(collection: "people", sort: nil, limit: 3),
    ]

    @Test(arguments: walks)
    func aWalkGivesTheRowsSQLiteGivesInItsOrder(_ walk: Walk) throws {
        let catalog = try DefinitionLoader.demo()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-pages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sqlite = try CatalogStore(path: folder.appendingPathComponent("pages.sqlite").path, catalog: catalog, options: .init(seedDemoData: true))
        let postgres = try PostgresStore(url: try PostgresTestServer.freshDatabase(), catalog: catalog, options: .init(seedDemoData: true))
        defer {
            try? sqlite.close()
            postgres.close()
        }
        let collection = try #require(catalog.collection(named: walk.collection))
        let query = CatalogQuery(collection: collection, sort: walk.sort, search: walk.search, sections: walk.sections, limit: walk.limit)
        let expected = try Self.walk(sqlite, query)
        let walked = try Self.walk(postgres, query)
        #expect(walked == expected)
        #expect(Set(walked).count == walked.count, "each row once")
        if walk.search == nil { #expect(walked.count == (try Self.walk(sqlite, CatalogQuery(collection: collection, limit: 1_000)).count)) }
    }

    /// The ids of every page of `query` from the first, visited as the API visits them.
    static func walk(_ store: any ItemStore, _ query: CatalogQuery) throws -> [String] {
        var query = query
        var ids: [String] = []
        var pages = 0
        while pages < 10_000 {
            pages += 1
            let end = try store.visitPage(query, restart: {}, visit: { row in ids.append(row.id.rawValue) })
            guard let next = end.nextAfter else { return ids }
            query.after = next
        }
        return ids
    }
}
