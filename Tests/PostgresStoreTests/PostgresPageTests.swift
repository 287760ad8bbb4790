import Definitions
import DemoData
import Domain
import Foundation
import Testing

@testable import Storage

/// A PostgreSQL page is one statement (`CatalogPageQuery.seekStatement`: a positioned page's
/// statements as one union, its LIMIT written in; a search's, `boundedSearchStatement`): walked
/// page by page, every order, section rule and search gives the rows the SQLite store gives, in
/// the same order, each once.
@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.missingReason))
struct PostgresPageTests {
    struct Walk: Sendable, CustomTestStringConvertible {
        let collection: String
        let sort: [SortKey]?
        var sections = false
        var search: String? = nil
        let limit: Int
        /// The rows a search walks before it reads its matches from the trigram indexes
        /// (`boundedSearchStatement`); a few, so that pages come from that second part.
        var walk: Int? = nil
        var testDescription: String {
            "\(collection) \(sort ?? []) sections \(sections) q \(search ?? "-") limit \(limit)" + (walk.map { " walk \($0)" } ?? "")
        }
    }

    static let walks: [Walk] = [
        Walk(collection: "products", sort: nil, limit: 7),
        Walk(collection: "products", sort: [SortKey("price", descending: true)], limit: 1),
        Walk(collection: "products", sort: [SortKey("price", descending: true)], limit: 6),
        Walk(collection: "products", sort: [SortKey("price", descending: false)], limit: 50),
        Walk(collection: "products", sort: nil, search: "a", limit: 4),
        Walk(collection: "products", sort: nil, search: "nothing like it", limit: 4),
        Walk(collection: "products", sort: nil, search: "a", limit: 4, walk: 3),
        Walk(collection: "products", sort: [SortKey("price", descending: true)], search: "e", limit: 3, walk: 2),
        Walk(collection: "products", sort: [SortKey("price", descending: false)], search: "e", limit: 5, walk: 4),
        Walk(collection: "people", sort: nil, sections: true, search: "an", limit: 3, walk: 2),
        Walk(collection: "people", sort: nil, sections: true, limit: 5),
        Walk(collection: "people", sort: nil, limit: 3),
    ]

    @Test(arguments: walks)
    func aWalkGivesTheRowsSQLiteGivesInItsOrder(_ walk: Walk) throws {
        let catalog = try DefinitionLoader.demo()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-pages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sqlite = try CatalogStore(
            path: folder.appendingPathComponent("pages.sqlite").path, catalog: catalog, options: .init(seedItems: DemoData.standardItems))
        var options = CatalogStore.Options(seedItems: DemoData.standardItems)
        if let rows = walk.walk { options.search.walk = rows }
        let postgres = try PostgresStore(url: try PostgresTestServer.freshDatabase(), catalog: catalog, options: options)
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

    /// A sectioned page's rows carry the items their sections are headed by (one statement, no
    /// snapshot of its own): each is the item as read by its id, and a row whose reference
    /// points to nothing has none.
    @Test func aSectionedPagesRowsCarryTheirSectionsItems() async throws {
        let catalog = try DefinitionLoader.demo()
        let store = try PostgresStore(
            url: try PostgresTestServer.freshDatabase(), catalog: catalog, options: .init(seedItems: DemoData.standardItems))
        defer { store.close() }
        let people = try #require(catalog.collection(named: "people"))
        let field = try #require(people.sections?.field)
        let slot = try #require(people.fields[field].slot)
        let target = try #require(people.fields[field].type.referencedCollection)
        var visited = 0
        var query = CatalogQuery(collection: people, sections: true, limit: 7)
        while true {
            let end = try store.visitPage(
                query, restart: {},
                visit: { row in
                    visited += 1
                    guard case .reference(let id) = try row.value(slot: slot) else {
                        #expect(try row.item(target, id: EntityID(kind: .department, timestampMilliseconds: 1, randomBits: 1)) == nil)
                        return
                    }
                    let carried = try row.item(target, id: id)
                    #expect(carried != nil)
                    #expect(carried == (try store.item(target, id: id))?.item)
                    // Another id than the row's reference is read by its key, not taken from the row.
                    #expect(try row.item(target, id: EntityID(kind: id.kind, timestampMilliseconds: 1, randomBits: 1)) == nil)
                })
            guard let next = end.nextAfter else { break }
            query.after = next
        }
        #expect(visited > 7)
    }

    /// The carried item is the one of the page's snapshot, not read again: a rename committed
    /// while the page is visited does not show in its headers.
    @Test func aSectionsItemIsTheOneOfThePagesSnapshot() throws {
        let catalog = try DefinitionLoader.demo()
        let url = try PostgresTestServer.freshDatabase()
        let store = try PostgresStore(url: url, catalog: catalog, options: .init(seedItems: DemoData.standardItems))
        defer { store.close() }
        let people = try #require(catalog.collection(named: "people"))
        let field = try #require(people.sections?.field)
        let slot = try #require(people.fields[field].slot)
        let target = try #require(people.fields[field].type.referencedCollection)
        let targetTable = CatalogTable(try #require(catalog.collection(named: target)))
        let column = try #require(targetTable.valueColumns.first { !$0.isEmpty }?.first)
        let other = try PostgresConnection(url: url)
        var checked: (before: Item?, carried: Item?, id: EntityID)?
        _ = try store.visitPage(
            CatalogQuery(collection: people, sections: true, limit: 3), restart: {},
            visit: { row in
                guard checked == nil, case .reference(let id) = try row.value(slot: slot) else { return }
                let before = try store.item(target, id: id)?.item
                try other.execute(
                    "UPDATE \(CatalogTable.quote(targetTable.name)) SET \(CatalogTable.quote(column)) = 'Renamed meanwhile' WHERE id = $1",
                    [.text(id.rawValue)])
                checked = (before, try row.item(target, id: id), id)
            })
        let seen = try #require(checked)
        #expect(seen.before != nil)
        #expect(seen.carried == seen.before)
        #expect(try store.item(target, id: seen.id)?.item != seen.before, "the rename committed")
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
