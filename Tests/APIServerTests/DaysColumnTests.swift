import Domain
import Testing

@testable import Definitions

/// `daysBetween` on date-times: whole UTC days, floor-divided, for any stored value.
@Suite("Days between date-times")
struct DaysColumnTests {
    static let catalog = """
        rowserver: 1
        collections:
          jobs:
            idPrefix: job
            title: Jobs
            fields:
              name: {type: text, required: true, label: Name}
              start: {type: dateTime, label: Start}
              end: {type: dateTime, label: End}
            row: {title: name}
            table:
              columns: [name, {id: span, title: Span, daysBetween: [start, end]}]
        """

    @Test(
        arguments: [
            (Int64(0), Int64(86_400_000), "1 day"), (-1, 0, "1 day"), (-86_400_000, -1, "0 days"), (0, 0, "0 days"),
            (86_400_000 * 3, 0, "-3 days"), (Int64.min, Int64.max, "213,503,982,335 days"),
        ] as [(Int64, Int64, String)])
    func daysAreWholeUTCDays(start: Int64, end: Int64, expected: String) throws {
        let catalog = try DefinitionLoader.load(text: Self.catalog, file: "jobs.yaml")
        let jobs = try #require(catalog.collection(named: "jobs"))
        let renderer = ItemRenderer(collection: jobs, catalog: catalog)
        let item = Item(id: EntityID.generate(kind: jobs.kind), in: jobs, ["name": .text("J"), "start": .integer(start), "end": .integer(end)])
        #expect(renderer.tableRow(item, references: .none, in: RenderContext(locale: .enUS))["span"] == expected)
    }
}
