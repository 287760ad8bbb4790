import RowKit
import Testing

/// The pure steps of `RowList`: joining pages and applying changes by id, as tables of cases.
@Suite("Joining pages and applying changes")
struct PageMergingTests {
    static func row(_ id: String, _ title: String? = nil) -> Row { Row(id: id, title: title ?? id.uppercased(), detail: "/v1/x/\(id)") }
    static func section(_ id: String, _ rows: [String]) -> Section { Section(id: id, header: id.uppercased(), rows: rows.map { row($0) }) }
    static func upsert(_ id: String, title: String, section: String? = nil) -> Change {
        Change(op: .upsert, id: id, row: row(id, title), section: section.map { SectionReference(id: $0, header: $0.uppercased()) })
    }

    struct AppendCase: Sendable, CustomTestStringConvertible {
        let name: String
        let first: Page.Content
        let next: Page.Content
        let expected: Page.Content
        var testDescription: String { name }
    }

    static let appendCases: [AppendCase] = [
        AppendCase(
            name: "rows follow rows", first: .rows([row("a"), row("b")]), next: .rows([row("c")]), expected: .rows([row("a"), row("b"), row("c")])),
        AppendCase(
            name: "a section continuing on the next page is one section",
            first: .sections([section("s1", ["a"]), section("s2", ["b"])]), next: .sections([section("s2", ["c"]), section("s3", ["d"])]),
            expected: .sections([section("s1", ["a"]), section("s2", ["b", "c"]), section("s3", ["d"])])),
        AppendCase(
            name: "a new section on the next page stays its own",
            first: .sections([section("s1", ["a"])]), next: .sections([section("s2", ["b"])]),
            expected: .sections([section("s1", ["a"]), section("s2", ["b"])])),
        AppendCase(
            name: "an empty next page changes nothing", first: .sections([section("s1", ["a"])]), next: .sections([]),
            expected: .sections([section("s1", ["a"])])),
        AppendCase(
            name: "another view replaces", first: .rows([row("a")]), next: .sections([section("s1", ["b"])]),
            expected: .sections([section("s1", ["b"])])),
    ]

    @Test(arguments: appendCases)
    func appendingJoinsPages(_ testCase: AppendCase) {
        #expect(testCase.first.appending(testCase.next) == testCase.expected)
    }

    struct ChangeCase: Sendable, CustomTestStringConvertible {
        let name: String
        let content: Page.Content
        let change: Change
        let applied: Bool
        let expected: Page.Content
        var testDescription: String { name }
    }

    static let changeCases: [ChangeCase] = [
        ChangeCase(
            name: "an edit replaces the row in place", content: .rows([row("a"), row("b"), row("c")]), change: upsert("b", title: "Bee"),
            applied: true,
            expected: .rows([row("a"), row("b", "Bee"), row("c")])),
        ChangeCase(
            name: "an unknown row is not placed", content: .rows([row("a")]), change: upsert("z", title: "Zed"), applied: false,
            expected: .rows([row("a")])),
        ChangeCase(
            name: "a delete removes the row", content: .rows([row("a"), row("b")]), change: Change(op: .delete, id: "a"), applied: true,
            expected: .rows([row("b")])),
        ChangeCase(
            name: "an edit in the same section stays in place", content: .sections([section("s1", ["a", "b"])]),
            change: upsert("a", title: "Ay", section: "s1"), applied: true,
            expected: .sections([Section(id: "s1", header: "S1", rows: [row("a", "Ay"), row("b")])])),
        ChangeCase(
            name: "a row moved to a shown section goes to its end", content: .sections([section("s1", ["a", "b"]), section("s2", ["c"])]),
            change: upsert("a", title: "A", section: "s2"), applied: true, expected: .sections([section("s1", ["b"]), section("s2", ["c", "a"])])),
        ChangeCase(
            name: "a row moved to a section not shown opens it at the end, and its old empty section goes",
            content: .sections([section("s1", ["a"]), section("s2", ["c"])]), change: upsert("a", title: "A", section: "s9"), applied: true,
            expected: .sections([section("s2", ["c"]), section("s9", ["a"])])),
        ChangeCase(
            name: "the last row of a section deleted removes the section", content: .sections([section("s1", ["a"]), section("s2", ["b"])]),
            change: Change(op: .delete, id: "a"), applied: true, expected: .sections([section("s2", ["b"])])),
        ChangeCase(
            name: "a table row without cells is not placed",
            content: .table(
                Table(columns: [], sort: [], rows: [TableRow(id: "a", cells: ["name": "A"], compact: CompactRow(title: "A"), detail: "/v1/x/a")])),
            change: upsert("a", title: "Ay"), applied: false,
            expected: .table(
                Table(columns: [], sort: [], rows: [TableRow(id: "a", cells: ["name": "A"], compact: CompactRow(title: "A"), detail: "/v1/x/a")]))),
        ChangeCase(
            name: "a table row with cells is replaced",
            content: .table(
                Table(columns: [], sort: [], rows: [TableRow(id: "a", cells: ["name": "A"], compact: CompactRow(title: "A"), detail: "/v1/x/a")])),
            change: Change(op: .upsert, id: "a", row: row("a", "Ay"), cells: ["name": "Ay", "note": nil], compact: CompactRow(title: "Ay")),
            applied: true,
            expected: .table(
                Table(
                    columns: [], sort: [],
                    rows: [TableRow(id: "a", cells: ["name": "Ay", "note": nil], compact: CompactRow(title: "Ay"), detail: "/v1/x/a")]))),
    ]

    @Test(arguments: changeCases)
    func changesApplyByID(_ testCase: ChangeCase) {
        var content = testCase.content
        let applied = testCase.change.op == .delete ? content.remove(id: testCase.change.id) : content.update(with: testCase.change)
        #expect(applied == testCase.applied)
        #expect(content == testCase.expected)
    }

    @Test func latestChangePerIDKeepsTheOrderOfLastChanges() {
        let changes = [Self.upsert("a", title: "1"), Self.upsert("b", title: "2"), Self.upsert("a", title: "3"), Change(op: .delete, id: "c")]
        let latest = Change.latestByID(changes)
        #expect(latest.map(\.id) == ["b", "a", "c"])
        #expect(latest[1].row?.title == "3")
    }
}

@Suite("Search links")
struct SearchLinkTests {
    @Test(arguments: [
        ("/v1/people", "ada", "/v1/people?q=ada"),
        ("/v1/people?group=department", "Zoë Ann", "/v1/people?group=department&q=Zo%C3%AB%20Ann"),
        ("/v1/people?q=old&limit=20", "new", "/v1/people?limit=20&q=new"),
        ("/v1/people?q=old&limit=20", "  ", "/v1/people?limit=20"),
        ("/v1/people?q=old", "", "/v1/people"),
        ("/v1/products", "a&b=c#d", "/v1/products?q=a%26b%3Dc%23d"),
    ])
    func searchReplacesOnlyTheQueryText(link: String, text: String, expected: String) {
        #expect(RowList.link(link, searching: text) == expected)
    }
}
