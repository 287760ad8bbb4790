import GRDB

/// Plans for orders by the title (`CatalogTable.titleOrderColumn`), whose index holds the
/// searched texts.
extension CatalogPageQuery {
    /// The title key column when the order starts with it (no sections before it), else nil.
    var titleOrderColumn: String? {
        guard let first = keys.first?.column.column, first == table.titleOrderColumn else { return nil }
        return first
    }

    /// This plan restricted to the rows whose title key starts with `prefix`: one range of the
    /// order's index. The range's start replaces the position when the position lies before it,
    /// so SQLite seeks to one bound and never filters a walk by the other.
    func restricted(toTitlesStartingWith prefix: String) -> CatalogPageQuery? {
        guard let column = titleOrderColumn.map({ "t.\(CatalogTable.quote($0))" }) else { return nil }
        let lower = prefix
        let upper = Self.prefixUpperBound(prefix)
        let descending = keys[0].descending
        var restricted = self
        let position = after.flatMap { $0.first.flatMap(String.fromDatabaseValue) }
        if descending {
            // Walking down: the range starts at its upper bound.
            if let position, let upper, !Self.precedes(position, upper) {
                restricted.after = nil
                restricted.add("\(column) < ?", [upper.databaseValue])
            } else if position == nil, let upper {
                restricted.add("\(column) < ?", [upper.databaseValue])
            }
            restricted.add("\(column) >= ?", [lower.databaseValue])
        } else {
            if let position, Self.precedes(position, lower) {
                restricted.after = nil
                restricted.add("\(column) >= ?", [lower.databaseValue])
            } else if position == nil {
                restricted.add("\(column) >= ?", [lower.databaseValue])
            }
            if let upper { restricted.add("\(column) < ?", [upper.databaseValue]) }
        }
        return restricted
    }

    /// Whether `a` sorts before `b` as SQLite compares text (BINARY: UTF-8 bytes, which is
    /// Unicode scalar order).
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// The least text after every text that starts with `prefix`: its last scalar incremented
    /// (skipping surrogates), dropping trailing U+10FFFF; nil when there is none.
    static func prefixUpperBound(_ prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var value = last.value + 1
            if value == 0xD800 { value = 0xE000 }
            if let next = Unicode.Scalar(value) {
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars)
                view.append(next)
                return String(view)
            }
        }
        return nil
    }
}
