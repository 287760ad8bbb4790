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
        // Everything but priority 4: 7,538 rows, under the exact bound, over the estimate's.
        let urgent = CatalogQuery(collection: tickets, conditions: [FieldCondition(field: priority, operation: .atMost, values: [.integer(3)])])
        #expect(try store.counts(urgent, mode: .exact, sections: .none)?.total == ListTotal(value: 7_538, exact: true))
        let estimated = try #require(try store.counts(urgent, mode: .estimated, sections: .none)?.total)
        #expect(!estimated.exact && estimated.value > 1_000 && estimated.value <= 10_050, "\(estimated)")
        // Past the exact bound: an estimate, at least the bound, at most the collection.
        let all = CatalogQuery(collection: tickets, conditions: [FieldCondition(field: priority, operation: .atMost, values: [.integer(4)])])
        let past = try #require(try store.counts(all, mode: .exact, sections: .none)?.total)
        #expect(!past.exact && past.value > 10_000 && past.value <= 10_050, "\(past)")
        // No conditions: the collection's rows, exact.
        let plain = CatalogQuery(collection: tickets)
        #expect(try store.counts(plain, mode: .estimated, sections: .none)?.total == ListTotal(value: 10_050, exact: true))
        // A section past the bound is estimated from the enum's cases; one within it is counted.
        let sectioned = CatalogQuery(collection: tickets, sections: true)
        let openKeys: [SortValue] = [.integer(0), .text("open")]
        let counts = try #require(try store.counts(sectioned, mode: .estimated, sections: .shown([openKeys])))
        #expect(counts.total == ListTotal(value: 10_050, exact: true))
        let open = try #require(counts.sections["open"])
        #expect(!open.exact && open.value > 1_000 && open.value <= 10_050, "\(open)")
        let openOnly = CatalogQuery(collection: tickets, conditions: [FieldCondition(field: status, operation: .equals, values: [.text("open")])])
        #expect(try store.counts(openOnly, mode: .exact, sections: .none)?.total == ListTotal(value: 2_513, exact: true))
    }

    @Test func theCollectionsRowsFollowWritesAndDeletes() async throws {
        let (store, tickets) = try await seeded()
        defer { try? store.close() }
        let plain = CatalogQuery(collection: tickets)
        #expect(try store.counts(plain, mode: .exact, sections: .none)?.total.value == 10_050)
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
        #expect(try store.counts(plain, mode: .exact, sections: .none)?.total == ListTotal(value: 10_053, exact: true))
        #expect(try store.counts(plain, mode: .none, sections: .none) == nil)
    }

    /// The estimate's arithmetic: the collection's rows times each condition's share.
    @Test(arguments: [
        ("status", FilterDefinition.Operation.equals, [FieldValue.text("open")], Int64(2_500)),
        ("status", .oneOf, [.text("open"), .text("pending")], 5_000),
        ("priority", .atMost, [.integer(2)], 3_333),
        ("subject", .equals, [.text("x")], 1_000),
    ])
    func anEstimateIsTheRowsTimesEachConditionsShare(field: String, operation: FilterDefinition.Operation, values: [FieldValue], expected: Int64)
        throws
    {
        let tickets = try CatalogFixtures.collection(try CatalogFixtures.tickets(), "tickets")
        let index = try #require(tickets.fieldIndex(named: field))
        let query = CatalogQuery(collection: tickets, conditions: [FieldCondition(field: index, operation: operation, values: values)])
        #expect(ListEstimate.rows(query, in: tickets, rows: 10_000, rowsOf: { _ in 1 }) == expected)
    }
}
