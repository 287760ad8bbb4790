import Domain
import Foundation
import Testing

@testable import Definitions

/// `examples/`: definitions that are not the demo load, and resolve to what they say.
@Suite("The example definitions")
struct ExampleDefinitionTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples")

    @Test func theTicketQueueLoads() throws {
        let catalog = try DefinitionLoader.load(path: Self.examples.appendingPathComponent("tickets.yaml").path)
        #expect(catalog.collections.map(\.name) == ["agents", "tickets", "comments"])
        let tickets = try #require(catalog.collection(named: "tickets"))
        #expect(tickets.sections?.name == "status")
        #expect(tickets.filters.map(\.name) == ["status", "assignee", "priority", "dueBefore", "billable", "minCredit"])
        #expect(tickets.sorts.map(\.name) == ["subject", "priority", "due", "opened", "status"])
        #expect(tickets.defaultSort == [SortKey("priority"), SortKey("due")])
        #expect(tickets.limits.defaultLimit == 25 && tickets.limits.maxLimit == 100)
        #expect(tickets.table?.columns.count == 7)
        #expect(catalog.references(to: try #require(catalog.collection(named: "agents"))).count == 1)
    }
}
