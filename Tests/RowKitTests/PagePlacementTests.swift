import RowKit
import Testing

/// `Page.Content.placing`: a feed's rows put where the server says they stand, as a table.
@Suite("Placing changed rows where the feed says")
struct PagePlacementTests {
    static func row(_ id: String) -> Row { Row(id: id, title: id.uppercased(), detail: "/v1/x/\(id)") }
    static func rows(_ ids: String) -> Page.Content { .rows(ids.split(separator: " ").map { row(String($0)) }) }
    static func put(_ id: String, after previous: String?, section: String? = nil) -> Change {
        Change(
            op: .upsert, id: id, placement: previous.map(Change.Placement.after) ?? .first, row: row(id),
            section: section.map { SectionReference(id: $0, header: $0.uppercased()) })
    }
    static func drop(_ id: String) -> Change { Change(op: .delete, id: id) }
    static func sections(_ groups: [(String, String)]) -> Page.Content {
        .sections(groups.map { Section(id: $0.0, header: $0.0.uppercased(), rows: $0.1.split(separator: " ").map { row(String($0)) }) })
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let content: Page.Content
        let changes: [Change]
        var hasMore = false
        var boundary: PageBoundary?
        /// Nil: the list must be read again.
        let expected: Page.Content?
        var after: PageBoundary?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a new first row", content: rows("a b c"), changes: [put("n", after: nil)], expected: rows("n a b c")),
        Case(name: "a new row after another", content: rows("a b c"), changes: [put("n", after: "b")], expected: rows("a b n c")),
        Case(name: "an edited row moves", content: rows("a b c d"), changes: [put("a", after: "c")], expected: rows("b c a d")),
        Case(name: "an edited row staying put", content: rows("a b c"), changes: [put("b", after: "a")], expected: rows("a b c")),
        Case(
            name: "a row after another new row", content: rows("a b"), changes: [put("m", after: "n"), put("n", after: "a")],
            expected: rows("a n m b")),
        Case(
            name: "a row after a row that moved", content: rows("a b c"), changes: [put("n", after: "a"), put("a", after: "c")],
            expected: rows("b c a n")),
        Case(name: "deletes and rows that left", content: rows("a b c"), changes: [drop("b"), drop("z")], expected: rows("a c")),
        Case(name: "into an empty list", content: rows(""), changes: [put("n", after: nil)], expected: rows("n")),
        Case(
            name: "past the last row read is left to the next page", content: rows("a b c"), changes: [put("n", after: "c"), put("m", after: "n")],
            hasMore: true, boundary: .after("c"), expected: rows("a b c"), after: .after("c")),
        Case(
            name: "a row moved past what is shown leaves", content: rows("a b c"), changes: [put("a", after: "x")], hasMore: true,
            boundary: .after("c"),
            expected: rows("b c"), after: .after("c")),
        Case(
            name: "after a row not shown, with every row shown, is read again", content: rows("a b c"), changes: [put("n", after: "x")],
            expected: nil),
        Case(
            name: "right after the last row shown, once the last row read left, is read again", content: rows("a b c"),
            changes: [drop("c"), put("n", after: "b")], hasMore: true, boundary: .after("c"), expected: nil),
        Case(
            name: "before the last row shown, once the last row read left, is placed", content: rows("a b c"),
            changes: [drop("c"), put("n", after: "a")], hasMore: true, boundary: .after("c"), expected: rows("a n b"), after: .beyond("b")),
        Case(
            name: "a vague boundary stays with the last row shown", content: rows("a b"), changes: [put("n", after: nil)], hasMore: true,
            boundary: .beyond("b"), expected: rows("n a b"), after: .beyond("b")),
        Case(
            name: "a vague boundary moves back when its row leaves", content: rows("a b"), changes: [drop("b")], hasMore: true,
            boundary: .beyond("b"), expected: rows("a"), after: .beyond("a")),
        Case(
            name: "no boundary known is read again", content: rows("a b c"), changes: [put("n", after: "a")], hasMore: true, boundary: nil,
            expected: nil),
        Case(
            name: "deletes alone need no boundary", content: rows("a b c"), changes: [drop("c")], hasMore: true, boundary: nil,
            expected: rows("a b")),
        Case(
            name: "a feed that does not place rows is read again", content: rows("a b"), changes: [Change(op: .upsert, id: "n", row: row("n"))],
            expected: nil),
        Case(
            name: "a row joins its section", content: sections([("s1", "a b"), ("s2", "c d")]), changes: [put("n", after: "c", section: "s2")],
            expected: sections([("s1", "a b"), ("s2", "c n d")])),
        Case(
            name: "a row starts a section after another one's last row", content: sections([("s1", "a b"), ("s2", "c d")]),
            changes: [put("n", after: "b", section: "s2")], expected: sections([("s1", "a b"), ("s2", "n c d")])),
        Case(
            name: "a row moved to a new section", content: sections([("s1", "a b"), ("s3", "c")]), changes: [put("a", after: "b", section: "s2")],
            expected: sections([("s1", "b"), ("s2", "a"), ("s3", "c")])),
        Case(
            name: "a section's last row leaving removes it", content: sections([("s1", "a"), ("s2", "b")]),
            changes: [put("a", after: "b", section: "s2")],
            expected: sections([("s2", "b a")])),
        Case(
            name: "a sectioned row without its section is read again", content: sections([("s1", "a")]), changes: [put("n", after: "a")],
            expected: nil),
    ]

    @Test(arguments: cases)
    func placingPutsRowsWhereTheServerSays(_ testCase: Case) {
        let placed = testCase.content.placing(testCase.changes, hasMore: testCase.hasMore, boundary: testCase.boundary)
        #expect(placed?.content == testCase.expected)
        if testCase.expected != nil { #expect(placed?.boundary == testCase.after) }
    }

    static let table = Table(
        columns: [TableColumn(id: "name", title: "Name", sortable: true, alignment: .leading)], sort: [],
        rows: [TableRow(id: "a", cells: ["name": "A"], compact: CompactRow(title: "A"), detail: "/v1/x/a")])

    @Test func aTableRowNeedsItsCells() {
        let content = Page.Content.table(Self.table)
        let withCells = Change(
            op: .upsert, id: "n", placement: .first, row: Self.row("n"), cells: ["name": "N"], compact: CompactRow(title: "N"))
        guard case .table(let placed)? = content.placing([withCells], hasMore: false, boundary: nil)?.content else {
            Issue.record("a table row with cells was not placed")
            return
        }
        #expect(placed.rows.map(\.id) == ["n", "a"])
        #expect(content.placing([Self.put("n", after: nil)], hasMore: false, boundary: nil) == nil)
    }
}
