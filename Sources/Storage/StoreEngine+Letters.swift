import Domain
import GRDB

/// One letter of a list's letter index: the rows whose first order key starts with it.
public struct ListLetter: Sendable, Hashable {
    /// The first character of the folded key (case and accents folded: `Ä` files under `a`).
    public var letter: String
    /// Its rows in the list, counted up to the index's bound; past it, at least the bound.
    public var count: ListTotal
    /// The keyset position just before its first row in the list's order: a page read after it
    /// opens the list at the letter.
    public var start: [SortValue]
}

extension StoreEngine {
    /// The letters of the list `query` describes, in its order (its position ignored), when its
    /// first order key is text: the distinct first characters of that key, each with its rows
    /// (counted up to `bound`) and where the list opens at it. At most `limit` letters.
    ///
    /// Read by skipping through the key's index: one seek to the next letter's first row, then
    /// a count of its range, never more than `bound` rows a letter, whatever the list's size.
    public func letters(_ query: CatalogQuery, bound: Int, limit: Int) throws(StoreError) -> [ListLetter] {
        var list = query
        list.after = nil
        return try onListPlan(list) { db, plan, _ in
            guard let first = plan.keys.first, first.column.isText, plan.keys.count > 1 else { return [] }
            let column = "t.\(CatalogTable.quote(first.column.column))"
            let (seek, count) = plan.letterStatements(column: column, bound: bound)
            var letters: [ListLetter] = []
            // Blank keys (a title left empty) have no letter: the scan starts past them.
            var from = "\u{1}"
            while letters.count < limit {
                guard let key = try db.first(seek, plan.arguments + [from.databaseValue], { $0.text(0) }),
                    let scalar = key.unicodeScalars.first
                else { break }
                let letter = String(scalar)
                let next = Self.successor(of: scalar)
                let rows = try db.integer(count, plan.arguments + [letter.databaseValue, next.databaseValue]) ?? 0
                letters.append(
                    ListLetter(
                        letter: letter, count: ListTotal(value: min(rows, Int64(bound)), exact: rows <= bound),
                        start: Self.start(at: letter, keys: plan.keys)))
                from = next
            }
            return first.descending ? letters.reversed() : letters
        }
    }

    /// The text just past every text that starts with `scalar`: the next scalar value.
    static func successor(of scalar: Unicode.Scalar) -> String {
        var value = scalar.value + 1
        if (0xD800...0xDFFF).contains(value) { value = 0xE000 }
        return Unicode.Scalar(value).map(String.init) ?? "\u{10FFFF}"
    }

    /// The position before the first row at `letter` in an order of `keys`: the letter itself
    /// ascending (every key starting with it is greater), past all of its keys descending; the
    /// other keys at their first value in their direction.
    static func start(at letter: String, keys: [CatalogPageQuery.OrderKey]) -> [SortValue] {
        keys.enumerated().map { index, key in
            if index == 0 { return .text(key.descending ? letter + "\u{10FFFF}" : letter) }
            if key.column.isText { return .text(key.descending ? "\u{10FFFF}" : "") }
            return .integer(key.descending ? Int64.max : Int64.min)
        }
    }
}

extension CatalogPageQuery {
    /// The seek to the first key at or past a text (one argument after the plan's), and the
    /// bounded count of the keys from one text to another (two).
    func letterStatements(column: String, bound: Int) -> (seek: String, count: String) {
        let head = "FROM \(CatalogTable.quote(table.name)) AS t" + (readsByKey ? " NOT INDEXED" : "") + " WHERE "
        let conditions = self.conditions.map { $0 + " AND " }.joined()
        return (
            "SELECT \(column) " + head + conditions + "\(column) >= ? ORDER BY \(column) LIMIT 1",
            "SELECT count(*) FROM (SELECT 1 " + head + conditions + "\(column) >= ? AND \(column) < ? LIMIT \(bound + 1)) AS c"
        )
    }
}
