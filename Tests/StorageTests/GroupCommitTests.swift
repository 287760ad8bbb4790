import DemoData
import Domain
import GRDB
import Testing

@testable import Storage

/// Concurrent writes share commits, and each is still answered on its own.
@Suite struct GroupCommitTests {
    @Test func concurrentInsertsAllCommitInFewerCommitsThanWrites() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let products = (0..<200).map { Fixtures.product("Item \($0)") }
        let versions = try await withThrowingTaskGroup(of: Int64.self) { group in
            for product in products {
                group.addTask { try await store.insert(.product(product)).version }
            }
            return try await group.reduce(into: [Int64]()) { $0.append($1) }
        }
        #expect(Set(versions).count == 200)
        #expect(try store.count(.products) == 200)
        #expect(try store.latestSequence() == 200)
        let counters = store.writeCounters
        #expect(counters.writes == 200)
        #expect(counters.commits < 200)
        #expect(counters.commits >= 1)
    }

    @Test func aFailingWriteDoesNotFailItsBatch() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let department = Fixtures.department()
        _ = try await store.insert(.department(department))
        let missing = EntityID.generate(kind: .department)
        let people = (0..<60).map { index in Fixtures.person(in: index % 3 == 0 ? missing : department.id, given: "P\(index)") }
        let results = await Self.concurrently(people) { person throws(StoreError) in try await store.insert(.person(person)).version }
        for (person, result) in results {
            if person.departmentID == missing {
                #expect(throws: StoreError.invalidReference(field: "/departmentID", id: missing)) { try result.get() }
            } else {
                #expect((try? result.get()) != nil)
            }
        }
        #expect(try store.count(.people) == 40)
        #expect(store.writeCounters.failedWrites == 20)
        // Failed writes take no sequence numbers: versions stay dense.
        #expect(try store.latestSequence() == 41)
    }

    /// Runs `write` for every value at once (so the store commits them in groups); each value
    /// with its write's version or refusal, in the order they finished.
    static func concurrently<Value: Sendable>(
        _ values: [Value], _ write: @escaping @Sendable (Value) async throws(StoreError) -> Int64
    ) async -> [(Value, Result<Int64, StoreError>)] {
        await withTaskGroup(of: (Value, Result<Int64, StoreError>).self) { group in
            for value in values {
                group.addTask {
                    do throws(StoreError) {
                        return (value, .success(try await write(value)))
                    } catch {
                        return (value, .failure(error))
                    }
                }
            }
            return await group.reduce(into: [(Value, Result<Int64, StoreError>)]()) { $0.append($1) }
        }
    }

    /// Writes of a batch index their rows for search after the batch's writes; a write that
    /// fails leaves nothing in the index. FTS5's integrity check compares the index with the rows.
    @Test func concurrentWritesLeaveTheSearchIndexEqualToTheRows() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        var stored: [Versioned<StoredItem>] = []
        for index in 0..<40 { stored.append(try await store.insert(.product(Fixtures.product("Lamp \(index)")))) }
        let snapshot = stored
        await withTaskGroup(of: Void.self) { group in
            for (index, current) in snapshot.enumerated() {
                guard case .product(var product) = current.item else { continue }
                group.addTask {
                    switch index % 4 {
                    case 0:
                        product.name = "Renamed Kettle \(index)"
                        _ = try? await store.update(.product(product), ifVersion: current.version)
                    case 1:
                        // A stale version: refused, after nothing was indexed.
                        product.name = "Stale Kettle \(index)"
                        _ = try? await store.update(.product(product), ifVersion: current.version + 1_000)
                    case 2: try? await store.delete(.products, id: product.id, ifVersion: current.version)
                    default: _ = try? await store.insert(.product(Fixtures.product("New Kettle \(index)")))
                    }
                }
            }
        }
        try store.store.applySearchBacklog()
        let queue = try DatabaseQueue(path: directory.path("test.sqlite"))
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO items_products_search (items_products_search, rank) VALUES ('integrity-check', 1)")
        }
        let kettles = try store.walk(ListQuery(collection: .products, search: "kettle")).compactMap { item -> String? in
            guard case .product(let product) = item.item else { return nil }
            return product.name
        }
        let expected = (0..<40).compactMap { index -> String? in
            switch index % 4 {
            case 0: "Renamed Kettle \(index)"
            case 3: "New Kettle \(index)"
            default: nil
            }
        }
        #expect(kettles.sorted() == expected.sorted())
        #expect(try store.count(.products) == 40)
    }
}
