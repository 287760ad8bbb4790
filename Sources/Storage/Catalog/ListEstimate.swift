import Domain

/// How many rows a list holds, estimated from a sample of its collection's rows rather than
/// read: the rows a sample of the table keeps, scaled to the table (`RowCounts`). With 20 of
/// the list's rows in the sample, the estimate is within about a fifth of the truth (one
/// standard deviation) when the list is rare, closer when it is not. The same
/// sample on either store (the same runs of the primary key), so SQLite and PostgreSQL answer
/// the same estimate for the same data, as they answer the same bytes.
struct ListEstimate: Sendable, Hashable {
    /// The keys of the primary key the sample read through, and of them the rows in the list
    /// (by section id for a sectioned list); `range`: the table's keys, smallest to largest.
    var sampled: Int64 = 0
    var matched: Int64 = 0
    /// The list's rows the sample found, in all and by section id (`matched` is corrected for
    /// where the runs stopped, these are not: a section's share of them is its share of `matched`).
    var found: Int64 = 0
    var foundBySection: [String: Int64] = [:]
    var range: Int64 = 0

    /// The most keys a sample reads: what an estimate costs, at most, whatever the list.
    static let size: Int64 = 1_000
    /// The runs of the primary key a sample reads, spread over it, so that rows written at one
    /// time (the first thousand) do not stand for the whole table.
    static let runs = 4
    /// The list's rows each run stops at: a page reads on until it has a page of rows (50, say),
    /// a sample until it has 20, so an estimate costs at most about two fifths of what its page
    /// costs to find its rows. With 20, the estimate is within about a fifth of the truth (one
    /// standard deviation) when the list is rare, closer when it is not.
    static let matchesPerRun = 5

    /// `matched` of `sampled` keys, scaled to `range` keys; never less than `atLeast` (what a page
    /// showed), never more than `rows` (the collection's rows).
    static func scaled(rows: Int64, range: Int64, sampled: Int64, matched: Double, atLeast: Int64) -> Int64 {
        guard sampled > 0 else { return min(max(atLeast, 0), max(rows, atLeast)) }
        let guess = Int64((Double(range) * matched / Double(sampled)).rounded())
        return max(atLeast, min(guess, rows))
    }

    /// The key each run starts at, from the table's smallest and largest.
    static func starts(low: Int64, high: Int64) -> [Int64] {
        (0..<Int64(runs)).map { low + (high - low) / Int64(runs) * $0 }
    }
}
