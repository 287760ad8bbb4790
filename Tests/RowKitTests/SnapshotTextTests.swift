import RowKit
import Testing

@Suite("A snapshot as terminal text")
struct SnapshotTextTests {
    struct TextCase: Sendable, CustomTestStringConvertible {
        let name: String
        let snapshot: RowListSnapshot
        let expected: String
        var testDescription: String { name }
    }

    static let cases: [TextCase] = [
        TextCase(
            name: "rows align their columns, the trailing value to the right",
            snapshot: RowListSnapshot(
                content: .rows([
                    Row(id: "1", title: "Kettle", subtitle: "Steel", trailing: "$12.00", detail: "/v1/p/1"),
                    Row(id: "2", title: "Tea pot", trailing: "$9.50", detail: "/v1/p/2"),
                ])),
            expected: "Kettle   Steel  $12.00\nTea pot          $9.50\n"),
        TextCase(
            name: "a column empty in every row is left out",
            snapshot: RowListSnapshot(
                content: .rows([Row(id: "1", title: "A", trailing: "1", detail: "/1"), Row(id: "2", title: "Bb", trailing: "22", detail: "/2")])),
            expected: "A    1\nBb  22\n"),
        TextCase(
            name: "sections print their header and indent their rows, aligned across sections",
            snapshot: RowListSnapshot(
                content: .sections([
                    Section(id: "s1", header: "Design", rows: [Row(id: "1", title: "Ada", subtitle: "ada@x", detail: "/1")]),
                    Section(id: "s2", header: "Sales", rows: [Row(id: "2", title: "Bartholomew", subtitle: "b@x", detail: "/2")]),
                ])),
            expected: "Design\n  Ada          ada@x\nSales\n  Bartholomew  b@x\n"),
        TextCase(
            name: "a table prints titles, the sort arrow and a rule",
            snapshot: RowListSnapshot(
                content: .table(
                    Table(
                        columns: [TableColumn(id: "name", title: "Name"), TableColumn(id: "price", title: "Price", alignment: .numeric)],
                        sort: [TableSort(column: "name", order: .ascending)],
                        rows: [
                            TableRow(id: "1", cells: ["name": "Kettle", "price": "$12.00"], compact: CompactRow(title: "Kettle"), detail: "/1"),
                            TableRow(id: "2", cells: ["name": "Cup", "price": nil], compact: CompactRow(title: "Cup"), detail: "/2"),
                        ]))),
            expected: "Name ↑   Price\n──────────────\nKettle  $12.00\nCup\n"),
        TextCase(
            name: "an empty list prints its empty state",
            snapshot: RowListSnapshot(content: .rows([]), empty: EmptyState(title: "No products", description: "Add one.", image: "cart")),
            expected: "No products\nAdd one.\n"),
    ]

    @Test(arguments: cases)
    func snapshotPrintsAligned(_ testCase: TextCase) {
        #expect(testCase.snapshot.text() == testCase.expected)
    }
}
