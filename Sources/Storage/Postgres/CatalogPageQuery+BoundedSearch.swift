import GRDB

/// A search page on PostgreSQL as one statement whose cost has a bound, whatever the text.
///
/// PostgreSQL picks between walking the order's index checking each row and reading every match
/// from the trigram indexes then sorting them, by its estimate of how many rows match. Neither
/// estimate sees where in the order the matches are: a text common in one range of the order
/// (titles that start with the word) makes the walk read most of the table before it finds a
/// page. So the statement walks the order for at most `walk` rows, and only when that finds no
/// whole page reads the matches from the position on and sorts them:
///
/// 1. `p`: the first `walk` rows from the position, in the page's order, checked; a page and one
///    more of those that match. A text that matches often is answered here, after few rows.
/// 2. Otherwise every match from the position, read from the trigram indexes (behind `OFFSET 0`,
///    so that PostgreSQL cannot turn it into a walk of the order again) and sorted.
///
/// PostgreSQL runs the second part only when the first found less than a page (its condition
/// on `p`'s count is checked once, before it reads anything).
extension CatalogPageQuery {
    func boundedSearchStatement(pattern: String, walk: Int) -> (sql: String, arguments: [DatabaseValue]) {
        let wanted = limit + 1
        let walked = seekStatement(rows: max(walk, wanted))
        let position = positionCondition()
        let text = table.seekTexts.value(for: shape(selecting: nil, combined: true, limit: wanted, walk: walk)) {
            let found = "(SELECT count(*) FROM p)"
            let first =
                "WITH p AS MATERIALIZED (SELECT w.* FROM (\(walked.sql)) AS w WHERE \(Self.matchSQL("w"))"
                + " ORDER BY \(orderByPositions) LIMIT \(wanted))"
            let rest = seekHead() + " WHERE " + (conditions + [Self.matchSQL("t")] + (position.map { [$0.sql] } ?? [])).joined(separator: " AND ")
            return [
                first + " SELECT * FROM p WHERE \(found) = \(wanted)"
                    + " UNION ALL SELECT x.* FROM (\(rest) OFFSET 0) AS x WHERE \(found) < \(wanted)"
                    + " ORDER BY \(orderByPositions) LIMIT \(wanted)"
            ]
        }
        let patterns = [pattern.databaseValue, pattern.databaseValue]
        return (text[0], walked.arguments + patterns + arguments + patterns + (position?.arguments ?? []))
    }

    /// A row's folded title or subtitle, on alias `alias`, is like the argument (twice).
    static func matchSQL(_ alias: String) -> String {
        "(\(alias).title_key LIKE ? OR \(alias).subtitle_key LIKE ?)"
    }

    /// The rows after the page's position as one condition: a row comparison for an order of one
    /// direction, else a key prefix per term (`keysetStatements`' conditions, joined by OR).
    func positionCondition() -> (sql: String, arguments: [DatabaseValue])? {
        guard let after else { return nil }
        let columns = keys.map { "t.\(CatalogTable.quote($0.column.column))" }
        if keys.allSatisfy({ !$0.descending }) {
            return ("(\(columns.joined(separator: ", "))) > (" + repeatElement("?", count: after.count).joined(separator: ", ") + ")", after)
        }
        var terms: [String] = []
        var arguments: [DatabaseValue] = []
        for index in keys.indices {
            let equal = columns[..<index].map { "\($0) = ?" }
            terms.append("(" + (equal + ["\(columns[index]) \(keys[index].descending ? "<" : ">") ?"]).joined(separator: " AND ") + ")")
            arguments += after[...index]
        }
        return ("(" + terms.joined(separator: " OR ") + ")", arguments)
    }
}
