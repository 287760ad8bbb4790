import Domain
import Testing

@testable import Storage

/// A walk while other rows are inserted, updated and deleted sees every row that was there
/// throughout exactly once, in order.
@Suite struct ConcurrentWalkTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var sort: [SortKey]
        var testDescription: String { sort.map { ($0.descending ? "-" : "") + $0.field }.joined(separator: ",") }
    }

    @Test(arguments: [
        Case(sort: [SortKey("name")]), Case(sort: [SortKey("price", descending: true)]),
        Case(sort: [SortKey("price", descending: true), SortKey("name")]),
    ])
    func rowsPresentThroughoutAreSeenOnceInOrder(_ test: Case) async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let stable = (0..<300).map { Fixtures.product(Self.name($0), minorUnits: Int64($0 % 17) * 100) }
        var volatile = (0..<300).map { Fixtures.product(Self.name($0 + 7), minorUnits: Int64($0 % 13) * 100) }
        try store.bulkLoad { loader in
            for product in stable + volatile { try loader.insert(.product(product)) }
        }

        let mutator = Task {
            var index = 0
            while !Task.isCancelled && index < 2_000 {
                let slot = index % volatile.count
                switch index % 3 {
                case 0:
                    try? await store.delete(.products, id: volatile[slot].id, ifVersion: nil)
                    volatile[slot] = Fixtures.product(Self.name(index), minorUnits: Int64(index % 11) * 100)
                    _ = try? await store.insert(.product(volatile[slot]))
                case 1:
                    volatile[slot].name = Self.name(index * 7)
                    volatile[slot].price.minorUnits = Int64(index % 19) * 100
                    _ = try? await store.update(.product(volatile[slot]), ifVersion: nil)
                default:
                    _ = try? await store.insert(.product(Fixtures.product(Self.name(index * 3), minorUnits: Int64(index % 7) * 100)))
                }
                index += 1
            }
        }
        var query = ListQuery(collection: .products, sort: test.sort, limit: 10)
        var seen: [EntityID] = []
        while true {
            let page = try store.page(query)
            seen += page.items.map(\.item.id)
            guard let next = page.nextAfter else { break }
            query.after = next
            // Room for the mutator's commits between pages.
            try await Task.sleep(for: .milliseconds(3))
        }
        let writesDuringWalk = store.writeCounters.writes
        mutator.cancel()
        _ = await mutator.result

        let stableIDs = Set(stable.map(\.id))
        let seenStable = seen.filter(stableIDs.contains)
        #expect(seenStable == ExpectedOrder.sorted(stable.map(StoredItem.product), by: test.sort))
        #expect(writesDuringWalk >= 20)
    }

    /// Names spread over the alphabet so that writes land before and after the walk's position.
    static func name(_ index: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzéüø")
        return String(letters[(index * 7) % letters.count]) + String(letters[(index * 13) % letters.count]) + " item \(index % 50)"
    }
}
