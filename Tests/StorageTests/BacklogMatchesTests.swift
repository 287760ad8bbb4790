import GRDB
import Testing

@testable import Storage

/// Which waiting matches an ordered search takes with the index's matches read so far
/// (`BacklogMatches.keys(through:descending:)`), as data: never one past a match not yet read.
@Suite struct BacklogMatchesTests {
    struct Case: CustomTestStringConvertible {
        let name: String
        /// The waiting rows: pk, title order key, id.
        let rows: [(Int64, String?, String)]
        /// The last match read: its title order key and id; nil: every match was read.
        let last: (title: String?, id: String)?
        let descending: Bool
        let expected: [Int64]

        var testDescription: String { name }
    }

    static let rows: [(Int64, String?, String)] = [(1, "apple", "p-1"), (2, "lamp", "p-2"), (3, "lamp", "p-4"), (4, "zebra", "p-3")]

    static let cases: [Case] = [
        Case(name: "every match read: all of them", rows: rows, last: nil, descending: false, expected: [1, 2, 3, 4]),
        Case(name: "every match read, descending: all of them", rows: rows, last: nil, descending: true, expected: [1, 2, 3, 4]),
        Case(name: "ascending: up to the last title", rows: rows, last: ("lamp", "p-9"), descending: false, expected: [1, 2, 3]),
        Case(name: "ascending: ties by id, the last one's included", rows: rows, last: ("lamp", "p-2"), descending: false, expected: [1, 2]),
        Case(name: "ascending: before the first waiting row", rows: rows, last: ("aardvark", "p-1"), descending: false, expected: []),
        Case(name: "ascending: a longer title sorts later", rows: rows, last: ("lam", "p-9"), descending: false, expected: [1]),
        // Descending, every row of the last match's title is read (`rowsOfTitle`).
        Case(name: "descending: down to the last title, its ties all", rows: rows, last: ("lamp", "p-0"), descending: true, expected: [2, 3, 4]),
        Case(name: "descending: past every waiting row", rows: rows, last: ("a", "p-1"), descending: true, expected: [1, 2, 3, 4]),
        // SQLite compares bytes: "Z" (0x5A) before "a" (0x61), "é" (0xC3 0xA9) after "z".
        Case(
            name: "bytes, not letters", rows: [(1, "Zoo", "p-1"), (2, "é", "p-2"), (3, "z", "p-3")], last: ("b", "p-1"), descending: false,
            expected: [1]),
        Case(
            name: "composed and decomposed differ", rows: [(1, "e\u{301}", "p-1"), (2, "\u{E9}", "p-0")], last: ("e\u{301}", "p-1"),
            descending: false, expected: [1]),
        // NULL sorts first.
        Case(name: "a NULL title first", rows: [(1, nil, "p-1"), (2, "a", "p-2")], last: ("", "p-0"), descending: false, expected: [1]),
    ]

    @Test(arguments: cases) func aSearchTakesOnlyTheWaitingMatchesItsReadCovers(_ test: Case) {
        let matches = BacklogMatches(rows: test.rows.map { BacklogMatches.Row(pk: $0.0, title: $0.1, id: $0.2) })
        #expect(matches.keys(through: test.last, descending: test.descending) == test.expected)
    }

    @Test func noWaitingMatchIsNoSource() {
        #expect(BacklogMatches.none.source == nil)
        let source = BacklogMatches(rows: [.init(pk: 7, title: "a", id: "p-7"), .init(pk: 9, title: "b", id: "p-9")]).source
        #expect(source?.arguments == ["[7,9]".databaseValue])
    }
}
