import GRDB

/// A walk of the sort index that keeps rows whose folded title or subtitle contains a text,
/// reading at most `budget` rows.
struct TextWalk {
    let needle: [UInt8]
    let titleColumn: Int
    let subtitleColumn: Int
    let budget: Int

    init(plan: PageQuery, text: String, budget: Int) {
        needle = Array(text.utf8)
        titleColumn = 2 + (plan.table.columns.firstIndex(of: "title_key") ?? 0)
        subtitleColumn = 2 + (plan.table.columns.firstIndex(of: "subtitle_key") ?? 0)
        self.budget = budget
    }

    /// Bytewise, like `instr` and the trigram index.
    func matches(_ row: Row) -> Bool {
        contains(row[titleColumn] as String?) || contains(row[subtitleColumn] as String?)
    }

    private func contains(_ text: String?) -> Bool {
        guard var text, !needle.isEmpty else { return false }
        return text.withUTF8 { haystack in
            guard haystack.count >= needle.count else { return false }
            let first = needle[0]
            for start in 0...(haystack.count - needle.count) where haystack[start] == first {
                var offset = 1
                while offset < needle.count && haystack[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            return false
        }
    }
}
