import Domain
import Foundation
import Storage
import Testing

/// `ItemStore.applyTogether`, the store's all-or-none write of a batch, on whichever store the
/// suites run for: refusals found in the transaction after earlier operations wrote (which the
/// API's own checks cannot reach without another writer) take those back, change log included.
@Suite("Group writes in the store")
struct StoreGroupWriteTests {
    let server: CatalogTestServer

    init() async throws {
        server = try CatalogTestServer.tickets()
    }

    func tickets(_ count: Int) async throws -> [Versioned<Item>] {
        var items: [Versioned<Item>] = []
        for index in 0..<count {
            let id = try await server.create("tickets", #"{"subject":"T\#(index)","opened":"2026-11-20"}"#)
            let parsed = try #require(EntityID(parsing: id))
            items.append(try #require(try server.store.item("tickets", id: parsed)))
        }
        return items
    }

    @Test func aGroupWritesInOrderWithOneChangeEntryEach() async throws {
        let items = try await tickets(3)
        let start = try server.store.latestSequence()
        let written = try await server.store.applyTogether(
            [.update(items[0].item, ifVersion: items[0].version), .delete(items[1].item.id, ifVersion: items[1].version)], in: "tickets")
        #expect(written.count == 2)
        #expect(written[1] == nil)
        let version = try #require(written[0]?.version)
        #expect(version > start)
        #expect(try server.store.item("tickets", id: items[0].item.id)?.version == version)
        #expect(try server.store.item("tickets", id: items[1].item.id) == nil)
        let feed = try server.store.changes("tickets", after: start, limit: 10).changes
        #expect(feed.count == 2)
        #expect(try server.store.version(of: "tickets") == start + 2)
    }

    /// `failing`: the operation the store refuses, after the ones before it wrote; they are taken back.
    @Test(arguments: [1, 2])
    func aRefusalInTheTransactionTakesBackTheOperationsBeforeIt(failing: Int) async throws {
        let items = try await tickets(3)
        let start = try server.store.latestSequence()
        var operations: [ItemOperation] = [.delete(items[0].item.id, ifVersion: nil), .update(items[1].item, ifVersion: items[1].version)]
        // The second: an item the first deleted; the third: a version the item no longer has.
        operations.insert(
            failing == 1 ? .delete(items[0].item.id, ifVersion: nil) : .update(items[2].item, ifVersion: items[2].version - 1), at: failing)
        do {
            _ = try await server.store.applyTogether(operations, in: "tickets")
            Issue.record("the group was written")
        } catch .inGroup(let operation, let failure) {
            #expect(operation == failing)
            switch failure {
            case .missing: #expect(failing == 1)
            case .versionMismatch(let current): #expect(current == items[2].version)
            default: Issue.record("\(failure)")
            }
        } catch {
            Issue.record("\(error)")
        }
        for item in items { #expect(try server.store.item("tickets", id: item.item.id) == item) }
        #expect(try server.store.changes("tickets", after: start, limit: 10).changes.isEmpty)
        #expect(try server.store.latestSequence() == start)
        // The store writes on after it: the sequence taken back is handed out again.
        _ = try await server.store.applyTogether([.delete(items[0].item.id, ifVersion: items[0].version)], in: "tickets")
        #expect(try server.store.latestSequence() == start + 1)
    }

    @Test func writesOfABatchThatIsNotAtomicStandAlone() async throws {
        let items = try await tickets(2)
        let results = await server.store.applyEach(
            [.delete(items[0].item.id, ifVersion: items[0].version + 7), .delete(items[1].item.id, ifVersion: nil)], in: "tickets")
        #expect(throws: StoreError.versionMismatch(current: items[0].version)) { try results[0].get() }
        #expect(try results[1].get() == nil)
        #expect(try server.store.item("tickets", id: items[0].item.id) == items[0])
        #expect(try server.store.item("tickets", id: items[1].item.id) == nil)
    }
}
