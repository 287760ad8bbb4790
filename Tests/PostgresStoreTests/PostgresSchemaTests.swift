import Definitions
import Domain
import Foundation
import Testing

@testable import Storage

/// A PostgreSQL database follows its definition's changes as a SQLite file does
/// (`CatalogSchemaTests`): what is safe migrates, what would lose data refuses, untouched.
@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.missingReason))
struct PostgresSchemaTests {
    static func catalog(_ fields: String, sort: String = "[name]", prefix: String = "not", searchable: Bool = false) throws -> Catalog {
        try DefinitionLoader.load(
            text: """
                rowserver: 1
                collections:
                  notes:
                    idPrefix: \(prefix)
                    title: Notes
                    fields:
                      name: {type: text, required: true, label: Name}
                \(fields)
                    row: {title: name}
                    sort: \(sort)
                \(searchable ? "" : "    search: false")
                """, file: "notes.yaml")
    }

    static let size = "      size: {type: integer, label: Size}"

    static func notes(_ catalog: Catalog) throws -> CollectionDefinition {
        try #require(catalog.collection(named: "notes"))
    }

    /// A new database with notes "First" (size 3) and "Second" (size 9); their ids.
    func databaseWithTwoNotes(_ catalog: Catalog) async throws -> (url: String, ids: [EntityID]) {
        let url = try PostgresTestServer.freshDatabase()
        let store = try PostgresStore(url: url, catalog: catalog, options: .init())
        defer { store.close() }
        let notes = try Self.notes(catalog)
        var ids: [EntityID] = []
        for (name, size) in [("First", 3), ("Second", 9)] {
            let id = EntityID.generate(kind: notes.kind)
            _ = try await store.insert(Item(id: id, in: notes, ["name": .text(name), "size": .integer(Int64(size))]), into: "notes")
            ids.append(id)
        }
        return (url, ids)
    }

    static func walk(_ store: PostgresStore, _ query: CatalogQuery) throws -> [EntityID] {
        var query = query
        var ids: [EntityID] = []
        while true {
            let page = try store.page(query)
            ids += page.items.map(\.item.id)
            guard let next = page.nextAfter else { return ids }
            query.after = next
        }
    }

    @Test func aNewFieldWithADefaultANewSortAndSearchAreAdded() async throws {
        let (url, ids) = try await databaseWithTwoNotes(try Self.catalog(Self.size))
        let grown = try Self.catalog(
            Self.size + "\n      done: {type: boolean, default: false, label: Done}", sort: "[name, size, done]", searchable: true)
        let store = try PostgresStore(url: url, catalog: grown)
        defer { store.close() }
        let notes = try Self.notes(grown)
        #expect(try store.item("notes", id: ids[0])?.item.value(of: "done", in: notes) == .boolean(false))
        // The new sort's key columns were computed for the items already there.
        #expect(try Self.walk(store, CatalogQuery(collection: notes, sort: [SortKey("size", descending: true)], limit: 1)) == ids.reversed())
        #expect(try Self.walk(store, CatalogQuery(collection: notes, sort: [SortKey("size")], limit: 1)) == ids)
        // So were the search keys of a collection that became searchable.
        #expect(try Self.walk(store, CatalogQuery(collection: notes, search: "econ", limit: 5)) == [ids[1]])
        // A third opening finds nothing left to do, and the items as they were.
        let again = try PostgresStore(url: url, catalog: grown)
        defer { again.close() }
        #expect(try again.item("notes", id: ids[1])?.item.value(of: "size", in: notes) == .integer(9))
    }

    @Test(arguments: [
        ("", "no longer has the stored field `size`"),
        ("      size: {type: text, label: Size}", "was integer and is now text"),
        (PostgresSchemaTests.size + "\n      color: {type: text, required: true, label: Color}", "is required and has no default"),
    ])
    func aChangeThatWouldLoseDataRefusesToOpenAndNamesIt(fields: String, message: String) async throws {
        let (url, ids) = try await databaseWithTwoNotes(try Self.catalog(Self.size))
        #expect {
            _ = try PostgresStore(url: url, catalog: try Self.catalog(fields))
        } throws: { error in
            guard case StoreError.incompatibleDefinition(let text) = error else { return false }
            return text.contains(message)
        }
        let reopened = try PostgresStore(url: url, catalog: try Self.catalog(Self.size))
        defer { reopened.close() }
        #expect(try reopened.item("notes", id: ids[0]) != nil)
    }

    @Test func aChangedIDPrefixOrAGoneCollectionRefusesToOpen() async throws {
        let (url, ids) = try await databaseWithTwoNotes(try Self.catalog(Self.size))
        #expect {
            _ = try PostgresStore(url: url, catalog: try Self.catalog(Self.size, prefix: "nte"))
        } throws: { error in
            guard case StoreError.incompatibleDefinition(let text) = error else { return false }
            return text.contains("was not and is now nte")
        }
        #expect {
            _ = try PostgresStore(url: url, catalog: try DefinitionLoader.demo(), options: .init())
        } throws: { error in
            guard case StoreError.incompatibleDefinition(let text) = error else { return false }
            return text.contains("no longer has the collection `notes`")
        }
        let reopened = try PostgresStore(url: url, catalog: try Self.catalog(Self.size))
        defer { reopened.close() }
        #expect(try reopened.item("notes", id: ids[1]) != nil)
    }

    @Test func anIndexTheDefinitionNoLongerPlansIsDropped() async throws {
        let (url, _) = try await databaseWithTwoNotes(try Self.catalog(Self.size, sort: "[name, size]"))
        let indexes = { () throws -> [String] in
            let result = try PostgresConnection(url: url).execute("SELECT indexname FROM pg_indexes WHERE tablename = 'items_notes'")
            return (0..<result.rowCount).compactMap { result.text($0, 0) }
        }
        #expect(try indexes().contains("items_notes__size"))
        let store = try PostgresStore(url: url, catalog: try Self.catalog(Self.size))
        store.close()
        #expect(try !indexes().contains("items_notes__size"))
        #expect(try indexes().contains("items_notes__size_desc") == false)
    }

    /// Every search reads a trigram index's list of entries not yet merged: it is kept short,
    /// on a new database and on one whose indexes were made with PostgreSQL's default.
    @Test func trigramIndexesKeepAShortListOfUnmergedEntries() async throws {
        let url = try PostgresTestServer.freshDatabase()
        let catalog = try Self.catalog(Self.size, searchable: true)
        let settings = { () throws -> [String] in
            let result = try PostgresConnection(url: url).execute(
                "SELECT coalesce(array_to_string(c.reloptions, ','), '') FROM pg_class AS c WHERE c.relname LIKE 'items_notes\\_\\_trgm\\_%' ORDER BY c.relname"
            )
            return (0..<result.rowCount).compactMap { result.text($0, 0) }
        }
        try PostgresStore(url: url, catalog: catalog).close()
        #expect(try settings() == ["gin_pending_list_limit=128", "gin_pending_list_limit=128"])
        for index in ["items_notes__trgm_title_key", "items_notes__trgm_subtitle_key"] {
            _ = try PostgresConnection(url: url).execute("ALTER INDEX \(index) RESET (gin_pending_list_limit)")
        }
        #expect(try settings() == ["", ""])
        try PostgresStore(url: url, catalog: catalog).close()
        #expect(try settings() == ["gin_pending_list_limit=128", "gin_pending_list_limit=128"])
    }
}
