import Definitions
import Domain
import Foundation
import GRDB
import Testing

@testable import Storage

/// A changed definition migrates what is safe and refuses, untouched, what would lose data.
@Suite("A store follows its definition's changes")
struct CatalogSchemaTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    static func catalog(_ fields: String, extra: String = "", sort: String = "[name]", prefix: String = "not") throws -> Catalog {
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
                \(extra)
                """, file: "notes.yaml")
    }

    func storeWithOneNote(_ catalog: Catalog) async throws -> (path: String, id: EntityID) {
        let path = directory.path("notes-\(UUID().uuidString).sqlite")
        let store = try CatalogStore(path: path, catalog: catalog)
        let notes = try CatalogFixtures.collection(catalog, "notes")
        let id = EntityID.generate(kind: notes.kind)
        _ = try await store.insert(Item(id: id, in: notes, ["name": .text("First"), "size": .integer(3)]), into: "notes")
        try store.close()
        return (path, id)
    }

    static let size = "      size: {type: integer, label: Size}"

    @Test func aNewOptionalFieldAndANewSortAreAdded() async throws {
        let (path, id) = try await storeWithOneNote(try Self.catalog(Self.size))
        let grown = try Self.catalog(Self.size + "\n      done: {type: boolean, default: false, label: Done}", sort: "[name, size, done]")
        let store = try CatalogStore(path: path, catalog: grown)
        let notes = try CatalogFixtures.collection(grown, "notes")
        let item = try #require(try store.item("notes", id: id))
        #expect(item.item.value(of: "done", in: notes) == .boolean(false))
        let bySize = try store.walk(CatalogQuery(collection: notes, sort: [SortKey("size", descending: true)]))
        #expect(bySize.map(\.item.id) == [id])
    }

    @Test(arguments: [
        ("", "no longer has the stored field `size`"),
        ("      size: {type: text, label: Size}", "was integer and is now text"),
        (CatalogSchemaTests.size + "\n      color: {type: text, required: true, label: Color}", "is required and has no default"),
    ])
    func aChangeThatWouldLoseDataRefusesToOpenAndNamesIt(fields: String, message: String) async throws {
        let (path, id) = try await storeWithOneNote(try Self.catalog(Self.size))
        let changed = try Self.catalog(fields)
        #expect {
            _ = try CatalogStore(path: path, catalog: changed)
        } throws: { error in
            guard case StoreError.incompatibleDefinition(let text) = error else { return false }
            return text.contains(message)
        }
        let reopened = try CatalogStore(path: path, catalog: try Self.catalog(Self.size))
        #expect(try reopened.item("notes", id: id) != nil)
    }

    @Test func aChangedIDPrefixRefusesToOpen() async throws {
        let (path, id) = try await storeWithOneNote(try Self.catalog(Self.size))
        #expect {
            _ = try CatalogStore(path: path, catalog: try Self.catalog(Self.size, prefix: "nte"))
        } throws: { error in
            guard case StoreError.incompatibleDefinition(let text) = error else { return false }
            return text.contains("was not and is now nte")
        }
        #expect(try CatalogStore(path: path, catalog: try Self.catalog(Self.size)).item("notes", id: id) != nil)
    }

    @Test func aCollectionThatIsGoneRefusesWhileItHasItems() async throws {
        let (path, _) = try await storeWithOneNote(try Self.catalog(Self.size))
        let other = try DefinitionLoader.demo()
        #expect {
            _ = try CatalogStore(path: path, catalog: other)
        } throws: { error in
            guard case StoreError.incompatibleDefinition(let text) = error else { return false }
            return text.contains("no longer has the collection `notes`")
        }
    }

    @Test func aDatabaseOfTheOldLayoutIsRefusedNotRewritten() throws {
        let path = directory.path("old.sqlite")
        // The layout of rowserver before definitions: GRDB's migrations table and a table per demo collection.
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v1: collections, search, change log')")
            try db.execute(sql: "CREATE TABLE products (pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO products (id, name) VALUES ('prd_0000000000000000', 'Kept')")
        }
        try queue.close()
        #expect(throws: StoreError.self) { _ = try CatalogStore(path: path, catalog: try DefinitionLoader.demo()) }
        let after = try DatabaseQueue(path: path)
        #expect(try after.read { try String.fetchAll($0, sql: "SELECT name FROM products") } == ["Kept"])
        #expect(try after.read { try $0.tableExists("catalog_fields") } == false)
    }

    /// A file from before child lists had feeds: its change log gains the parent column and its
    /// index, keeps its entries, and records the next write.
    @Test func aChangeLogWithoutParentsGainsTheColumnAndKeepsItsEntries() async throws {
        let catalog = try Self.catalog(Self.size)
        let (path, id) = try await storeWithOneNote(catalog)
        let old = try DatabaseQueue(path: path)
        try await old.write { db in
            try db.execute(sql: "DROP INDEX changes_parent")
            try db.execute(sql: "ALTER TABLE changes DROP COLUMN parent_id")
        }
        try old.close()
        let store = try CatalogStore(path: path, catalog: catalog)
        let notes = try CatalogFixtures.collection(catalog, "notes")
        _ = try await store.insert(Item(id: EntityID.generate(kind: notes.kind), in: notes, ["name": .text("Second")]), into: "notes")
        try store.close()
        let after = try DatabaseQueue(path: path)
        let entries = try await after.read { db in try Row.fetchAll(db, sql: "SELECT item_id, parent_id FROM changes ORDER BY seq") }
        #expect(entries.count == 2)
        #expect(entries.first?["item_id"] == id.rawValue)
        #expect(entries.allSatisfy { $0["parent_id"] == nil as String? })
        #expect(try await after.read { db in try db.indexes(on: "changes").contains { $0.name == "changes_parent" } })
    }

    /// A search text made by a template under the old rule (a missing placeholder kept its
    /// separator) is made again once the store opens under `Template.fill`'s rule.
    @Test func searchKeysOfATemplateAreMadeAgainUnderTheDroppingRule() async throws {
        let catalog = try Self.catalog(Self.size, extra: "    search: [\"{size} · {name}\"]")
        let (path, id) = try await storeWithOneNote(catalog)
        let queue = try DatabaseQueue(path: path)
        let derivation = try await queue.read { db in
            try String.fetchOne(db, sql: "SELECT derivation FROM catalog_derivations WHERE collection = 'notes'")
        }
        #expect(derivation?.hasSuffix("\ntemplates/2") == true)
        try await queue.write { db in
            // What a store of the old rule recorded: no "templates/2", and a key made by that rule.
            try db.execute(
                sql: "UPDATE catalog_derivations SET derivation = ? WHERE collection = 'notes'",
                arguments: [derivation?.replacingOccurrences(of: "\ntemplates/2", with: "")])
            try db.execute(sql: "UPDATE items_notes SET title_key = 'stale'")
        }
        try queue.close()
        let store = try CatalogStore(path: path, catalog: catalog)
        #expect(try store.item("notes", id: id) != nil)
        try store.close()
        let reopened = try DatabaseQueue(path: path)
        #expect(try await reopened.read { try String.fetchAll($0, sql: "SELECT title_key FROM items_notes") } != ["stale"])
        try reopened.close()
    }

    /// Tickets: enum sections in declared order, dates, an optional reference.
    @Test func ticketsSectionByStatusInDeclaredOrder() async throws {
        let catalog = try CatalogFixtures.tickets()
        let store = try directory.catalogStore("tickets.sqlite", catalog: catalog)
        let tickets = try CatalogFixtures.collection(catalog, "tickets")
        let statuses = ["closed", "open", "solved", "pending", "open", "closed"]
        var ids: [EntityID] = []
        for (index, status) in statuses.enumerated() {
            let id = EntityID.generate(kind: tickets.kind)
            ids.append(id)
            let item = Item(
                id: id, in: tickets,
                [
                    "subject": .text("T\(index)"), "status": .text(status), "priority": .integer(Int64(4 - index % 4)),
                    "opened": .text("2026-11-0\(index + 1)"),
                    "billable": .boolean(false),
                ])
            _ = try await store.insert(item, into: "tickets")
        }
        let walked = try store.walk(CatalogQuery(collection: tickets, sections: true, limit: 2))
        let order = walked.map { $0.item.value(of: "status", in: tickets).text ?? "" }
        #expect(order == ["open", "open", "pending", "solved", "closed", "closed"])
        let due = try #require(tickets.fieldIndex(named: "opened"))
        let early = try store.walk(
            CatalogQuery(collection: tickets, conditions: [FieldCondition(field: due, operation: .atMost, values: [.text("2026-11-02")])]))
        #expect(Set(early.map(\.item.id)) == Set(ids.prefix(2)))
    }
}
