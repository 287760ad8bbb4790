import Domain
import Foundation
import Testing

@testable import Storage

/// Totals past their bound: counted one by one up to it, then estimated, never a scan of the
/// whole list; a list without conditions is the collection's rows, exact at any size, followed
/// through the change log as writes come.
@Suite("List totals on a store")
struct ListCountsTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// 10,050 tickets (a quarter of them open), seeded in one transaction.
    func seeded() async throws -> (store: CatalogStore, tickets: CollectionDefinition) {
        let catalog = try CatalogFixtures.tickets()
        let store = try directory.catalogStore("tickets.sqlite", catalog: catalog)
        let tickets = try CatalogFixtures.collection(catalog, "tickets")
        let statuses = ["open", "pending", "solved", "closed"]
        let items = (0..<10_050).map { index in
            let status = statuses[index % 4]
            let item = Item(
                id: EntityID.generate(kind: tickets.kind), in: tickets,
                [
                    "subject": .text("Ticket \(index)"), "status": .text(status), "priority": .integer(Int64(1 + index % 4)),
                    "opened": .text("2026-11-01"), "billable": .boolean(false),
                ])
            return (collection: tickets, item: item)
        }
        try store.seed(items)
        return (store, tickets)
    }

    @Test func anExactTotalStopsAtItsBoundAndEstimatesPastIt() async throws {
        let (store, tickets) = try await seeded()
        defer { try? store.close() }
        let priority = try #require(tickets.fieldIndex(named: "priority"))
        let status = try #require(tickets.fieldIndex(named: "status"))
        // Everything but priority 4: 7,538 rows, under the exact bound; estimated from a sample.
        let urgent = CatalogQuery(collection: tickets, conditions: [FieldCondition(field: priority, operation: .atMost, values: [.integer(3)])])
        #expect(try store.counts(urgent, mode: .exact, sections: .none, proof: nil)?.total == ListTotal(value: 7_538, exact: true))
        let estimated = try #require(try store.counts(urgent, mode: .estimated, sections: .none, proof: nil)?.total)
        // The sample (20 of the list's rows at least) holds the seeded pattern, three in four kept, within a tenth.
        #expect(!estimated.exact && abs(estimated.value - 7_538) <= 754, "\(estimated)")
        // Past the exact bound: an estimate, at least the rows counted, at most the collection.
        let all = CatalogQuery(collection: tickets, conditions: [FieldCondition(field: priority, operation: .atMost, values: [.integer(4)])])
        let past = try #require(try store.counts(all, mode: .exact, sections: .none, proof: nil)?.total)
        #expect(past == ListTotal(value: 10_050, exact: false), "\(past)")
        // No conditions: the collection's rows, exact.
        let plain = CatalogQuery(collection: tickets)
        #expect(try store.counts(plain, mode: .estimated, sections: .none, proof: nil)?.total == ListTotal(value: 10_050, exact: true))
        // A section past the bound is estimated; a page that showed some of its rows keeps it above them.
        let sectioned = CatalogQuery(collection: tickets, sections: true)
        let openKeys: [SortValue] = [.integer(0), .text("open")]
        let counts = try #require(try store.counts(sectioned, mode: .estimated, sections: .shown([openKeys]), proof: nil))
        #expect(counts.total == ListTotal(value: 10_050, exact: true))
        let open = try #require(counts.sections["open"])
        #expect(!open.exact && abs(open.value - 2_513) <= 503, "\(open)")
        let exactOpen = try #require(try store.counts(sectioned, mode: .exact, sections: .shown([openKeys]), proof: nil)?.sections["open"])
        #expect(exactOpen == ListTotal(value: 2_513, exact: true))
        let openOnly = CatalogQuery(collection: tickets, conditions: [FieldCondition(field: status, operation: .equals, values: [.text("open")])])
        #expect(try store.counts(openOnly, mode: .exact, sections: .none, proof: nil)?.total == ListTotal(value: 2_513, exact: true))
        // A whole list shown on one page is counted by it: nothing is read.
        let proof = PageProof(rows: 3, whole: true)
        #expect(try store.counts(openOnly, mode: .estimated, sections: .none, proof: proof)?.total == ListTotal(value: 3, exact: true))
    }

    @Test func theCollectionsRowsFollowWritesAndDeletes() async throws {
        let (store, tickets) = try await seeded()
        defer { try? store.close() }
        let plain = CatalogQuery(collection: tickets)
        #expect(try store.counts(plain, mode: .exact, sections: .none, proof: nil)?.total.value == 10_050)
        var created: [EntityID] = []
        for index in 0..<5 {
            let item = Item(
                id: EntityID.generate(kind: tickets.kind), in: tickets,
                [
                    "subject": .text("New \(index)"), "status": .text("open"), "priority": .integer(1), "opened": .text("2026-11-02"),
                    "billable": .boolean(false),
                ])
            created.append(try await store.insert(item, into: "tickets").item.id)
        }
        try await store.delete(created[0], from: "tickets", ifVersion: nil)
        try await store.delete(created[1], from: "tickets", ifVersion: nil)
        #expect(try store.counts(plain, mode: .exact, sections: .none, proof: nil)?.total == ListTotal(value: 10_053, exact: true))
        #expect(try store.counts(plain, mode: .none, sections: .none, proof: nil) == nil)
    }

    /// The estimate's arithmetic: the share of the keys read that the list keeps, over every key
    /// of the table; never below what a page showed, never above the collection's rows.
    @Test(arguments: [
        (Int64(1_000_000), Int64(1_000_000), Int64(1_000), Int64(250), Int64(0), Int64(250_000)),
        (1_000_000, 1_000_000, 1_000, 0, 51, 51),
        (1_000_000, 1_200_000, 100, 20, 0, 240_000),
        (900_000, 1_200_000, 100, 100, 0, 900_000),
        (5_000, 5_000, 1_000, 999, 6_000, 6_000),
        (1_000_000, 1_000_000, 0, 0, 12, 12),
    ])
    func anEstimateScalesTheSampleToTheCollection(rows: Int64, range: Int64, sampled: Int64, matched: Int64, atLeast: Int64, expected: Int64) {
        #expect(ListEstimate.scaled(rows: rows, range: range, sampled: sampled, matched: Double(matched), atLeast: atLeast) == expected)
    }

    @Test func theSampleRunsSpreadOverThePrimaryKey() {
        #expect(ListEstimate.starts(low: 1, high: 1_000_001) == [1, 250_001, 500_001, 750_001])
        #expect(ListEstimate.starts(low: 7, high: 7) == [7, 7, 7, 7])
    }
}
