/// A snapshot as aligned plain text, for a terminal: the rows with their subtitle and trailing
/// value in columns, a grouped list under its section headers, a table under its column titles.
extension RowListSnapshot {
    public func text() -> String {
        switch content {
        case nil: return ""
        case _ where rows.isEmpty:
            guard let empty else { return "" }
            return empty.title + "\n" + empty.description + "\n"
        case .rows(let rows):
            return Self.aligned(rows.map(Self.cells), numeric: [false, false, true])
        case .sections(let sections):
            // One set of column widths for every section, so the columns line up down the list.
            let lines = Self.alignedLines(sections.flatMap { $0.rows.map(Self.cells) }, numeric: [false, false, true])
            var text = ""
            var line = 0
            for section in sections {
                text += section.header + "\n"
                for _ in section.rows {
                    text += "  " + lines[line] + "\n"
                    line += 1
                }
            }
            return text
        case .table(let table):
            let header = table.columns.map { column in
                column.title + (table.sort.first { $0.column == column.id }.map { $0.order == .ascending ? " ↑" : " ↓" } ?? "")
            }
            let body = table.rows.map { row in table.columns.map { row[$0.id] ?? "" } }
            let lines = Self.alignedLines([header] + body, numeric: table.columns.map { $0.alignment == .numeric })
            let rule = String(repeating: "─", count: lines.first?.count ?? 0)
            return ([lines[0], rule] + lines.dropFirst()).joined(separator: "\n") + "\n"
        }
    }

    private static func cells(_ row: Row) -> [String] { [row.title, row.subtitle ?? "", row.trailing ?? ""] }

    private static func aligned(_ rows: [[String]], numeric: [Bool]) -> String {
        alignedLines(rows, numeric: numeric).map { $0 + "\n" }.joined()
    }

    /// Each row's cells padded to their column's widest cell (in characters), two spaces apart;
    /// numeric columns to the right; a column empty in every row is left out. Trailing blanks are trimmed.
    static func alignedLines(_ rows: [[String]], numeric: [Bool]) -> [String] {
        let count = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            var line = ""
            var first = true
            for (index, cell) in row.enumerated() where widths[index] > 0 {
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                let right = index < numeric.count && numeric[index]
                if !first { line += "  " }
                first = false
                line += right ? padding + cell : cell + padding
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
