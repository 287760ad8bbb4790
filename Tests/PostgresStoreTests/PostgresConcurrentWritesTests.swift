import Definitions
import Domain
import Foundation
import Testing

@testable import Storage

/// Two stores (two instances) writing one PostgreSQL database at once: their writes run
/// together and only the change log waits on the writers' lock, so they must still take turns
/// on one item (no lost update), hand out every sequence once in commit order, and never leave
/// a reference to a deleted item.
@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.missingReason))
struct PostgresConcurrentWritesTests {
    static func stores() throws -> (PostgresStore, PostgresStore, String) {
        let catalog = try DefinitionLoader.demo()
        let url = try PostgresTestServer.freshDatabase()
        return (try PostgresStore(url: url, catalog: catalog), try PostgresStore(url: url, catalog: catalog), url)
    }

    static func product(_ name: String, in catalog: Catalog) throws -> Item {
        let products = try #require(catalog.collection(named: "products"))
        return Item(
            id: EntityID.generate(kind: products.kind), in: products,
            [
                "name": .text(name), "shortDescription": .text("Short"), "longDescription": .text("Long."),
                "price": .money(Money(minorUnits: 100, currency: "USD")),
            ])
    }

    /// The change log's entries, in sequence order: (seq, item id).
    static func log(_ url: String) throws -> [(Int64, String)] {
        let connection = try PostgresConnection(url: url)
        let result = try connection.execute("SELECT seq, item_id FROM changes ORDER BY seq")
        return try (0..<result.rowCount).map { row in (try result.integer(row, 0) ?? 0, result.text(row, 1) ?? "") }
    }

    /// Each store edits one item with If-Match, reading it again after every refusal: the edits
    /// acknowledged form one chain, each made on the version the one before it made (two made
    /// on the same version would be a lost update), and the item ends at the newest.
    @Test func twoInstancesEditingOneItemTakeTurns() async throws {
        let (one, two, url) = try Self.stores()
        defer {
            one.close()
            two.close()
        }
        let first = try await one.insert(try Self.product("Shared", in: one.catalog), into: "products")
        let edits = 15
        let acknowledged = try await withThrowingTaskGroup(of: [(base: Int64, made: Int64)].self) { group in
            for (index, store) in [one, two].enumerated() {
                for writer in 0..<2 {
                    group.addTask {
                        var made: [(base: Int64, made: Int64)] = []
                        while made.count < edits {
                            guard let current = try store.item("products", id: first.item.id) else { throw StoreError.invariant("gone") }
                            var values = current.item.values
                            values[0] = .text("Edit \(index).\(writer).\(made.count)")
                            let item = Item(id: current.item.id, values: values)
                            do {
                                made.append((current.version, try await store.update(item, in: "products", ifVersion: current.version).version))
                            } catch StoreError.versionMismatch {
                                continue
                            }
                        }
                        return made
                    }
                }
            }
            var all: [(base: Int64, made: Int64)] = []
            for try await made in group { all += made }
            return all.sorted { $0.made < $1.made }
        }
        #expect(acknowledged.count == 4 * edits)
        #expect(acknowledged.map(\.base) == [first.version] + acknowledged.dropLast().map(\.made), "one chain of edits")
        let final = try #require(try one.item("products", id: first.item.id))
        #expect(final.version == acknowledged.last?.made)
        let entries = try Self.log(url).filter { $0.1 == first.item.id.rawValue }
        #expect(entries.map(\.0) == [first.version] + acknowledged.map(\.made))
    }

    /// Edits sent at once on one version, most of them in one batch: one is made, and every
    /// other is refused naming the version it made (not a provisional one of the batch).
    @Test func editsOnOneVersionInOneBatchMakeOneAndNameItsVersion() async throws {
        let (one, two, _) = try Self.stores()
        defer {
            one.close()
            two.close()
        }
        let first = try await one.insert(try Self.product("Contended", in: one.catalog), into: "products")
        let outcomes = await withTaskGroup(of: Result<Int64, StoreError>.self) { group in
            for index in 0..<12 {
                var values = first.item.values
                values[0] = .text("Edit \(index)")
                let item = Item(id: first.item.id, values: values)
                let store = index < 8 ? one : two
                group.addTask {
                    do {
                        return .success(try await store.update(item, in: "products", ifVersion: first.version).version)
                    } catch {
                        return .failure(StoreError.from(error))
                    }
                }
            }
            var all: [Result<Int64, StoreError>] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        let made = outcomes.compactMap { try? $0.get() }
        #expect(made.count == 1)
        let version = try #require(made.first)
        #expect(version > first.version)
        for case .failure(let error) in outcomes { #expect(error == .versionMismatch(current: version)) }
        #expect(try one.item("products", id: first.item.id)?.version == version)
    }

    /// Inserts through both stores at once: every sequence is handed out once, with no gap, and
    /// each item's version is its entry's sequence.
    @Test func twoInstancesInsertingHandOutEverySequenceOnce() async throws {
        let (one, two, url) = try Self.stores()
        defer {
            one.close()
            two.close()
        }
        let catalog = one.catalog
        let written = try await withThrowingTaskGroup(of: Versioned<Item>.self) { group in
            for index in 0..<120 {
                let store = index.isMultiple(of: 2) ? one : two
                let item = try Self.product("Item \(index)", in: catalog)
                group.addTask { try await store.insert(item, into: "products") }
            }
            var all: [Versioned<Item>] = []
            for try await item in group { all.append(item) }
            return all
        }
        let entries = try Self.log(url)
        #expect(entries.map(\.0) == Array(1...Int64(entries.count)), "every sequence once, no gap")
        let bySequence = Dictionary(uniqueKeysWithValues: entries.map { ($0.0, $0.1) })
        for item in written {
            #expect(bySequence[item.version] == item.item.id.rawValue)
            #expect(try two.item("products", id: item.item.id)?.version == item.version)
        }
        #expect(Set(written.map(\.version)).count == written.count)
    }

    /// One store deletes a department while the other adds people to it: either the delete is
    /// refused (the people came first) or the people are (the department was gone), never a
    /// person pointing at nothing.
    @Test func aDeleteAndReferencesToItNeverLeaveOneDangling() async throws {
        let (one, two, _) = try Self.stores()
        defer {
            one.close()
            two.close()
        }
        let catalog = one.catalog
        let departments = try #require(catalog.collection(named: "departments"))
        let people = try #require(catalog.collection(named: "people"))
        for round in 0..<6 {
            let department = try await one.insert(
                Item(id: EntityID.generate(kind: departments.kind), in: departments, ["name": .text("Department \(round)")]), into: "departments")
            let id = department.item.id
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<4 {
                    let person = Item(
                        id: EntityID.generate(kind: people.kind), in: people,
                        [
                            "givenName": .text("Given \(index)"), "familyName": .text("Family"), "emailAddress": .text("p\(index)@example.com"),
                            "phoneNumber": .text("+1 555 0100"), "departmentID": .reference(id),
                        ])
                    group.addTask {
                        do {
                            _ = try await one.insert(person, into: "people")
                            return true
                        } catch StoreError.invalidReference {
                            return false
                        }
                    }
                }
                group.addTask {
                    do {
                        try await two.delete(id, from: "departments", ifVersion: nil)
                        return false
                    } catch StoreError.stillReferenced {
                        return true
                    }
                }
                var kept: [Bool] = []
                for try await outcome in group { kept.append(outcome) }
                return kept
            }
            let exists = try one.item("departments", id: id) != nil
            let field = try #require(people.fieldIndex(named: "departmentID"))
            let referencing = try one.page(
                CatalogQuery(collection: people, conditions: [FieldCondition(field: field, operation: .equals, values: [.reference(id)])], limit: 100)
            )
            if exists {
                #expect(!referencing.items.isEmpty, "a refused delete means people came first")
            } else {
                #expect(referencing.items.isEmpty, "a deleted department has no people")
                #expect(outcomes.filter { $0 }.isEmpty)
            }
        }
    }
}
