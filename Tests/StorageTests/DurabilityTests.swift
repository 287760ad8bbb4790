import DemoData
import Domain
import Testing

@testable import Storage

/// What was acknowledged is there after the store is closed and the file reopened.
@Suite struct DurabilityTests {
    @Test func acknowledgedWritesSurviveClosingAndReopening() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("durable.sqlite")
        let items = Fixtures.oneOfEach()
        var written: [Versioned<StoredItem>] = []
        var deleted = Fixtures.product("Gone")
        do {
            let store = try DemoStore(path: path)
            for item in items { written.append(try await store.insert(item)) }
            _ = try await store.insert(.product(deleted))
            try await store.delete(.products, id: deleted.id, ifVersion: nil)
            try store.close()
            #expect(throws: StoreError.self) { try store.checkHealth() }
        }
        let reopened = try DemoStore(path: path, options: .init(seedItems: DemoData.standardItems))
        for item in written {
            #expect(try reopened.item(item.item.collection, id: item.item.id) == item)
        }
        deleted.name = "still gone"
        #expect(try reopened.item(.products, id: deleted.id) == nil)
        #expect(try reopened.latestSequence() == Int64(items.count + 2))
        #expect(try reopened.version(of: .products) == Int64(items.count + 2))
        #expect(try reopened.version(of: .samples) == written.last?.version)
        #expect(try reopened.count(.products) == 1)
        try reopened.checkHealth()
    }
}
