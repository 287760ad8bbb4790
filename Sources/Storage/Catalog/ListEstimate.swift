import Domain

/// How many rows a list holds, estimated from a sample of its collection's rows rather than
/// read: the rows a sample of the table keeps, scaled to the table (`RowCounts`). With 20 of
/// the list's rows in the sample, the estimate is within about a fifth of the truth (one
/// standard deviation) when the list is rare, closer when it is not. The same
/// sample on either store (the same runs of the primary key), so SQLite and PostgreSQL answer
/// the same estimate for the same data, as they answer the same bytes.
struct ListEstimate: Sendable, Hashable {
    /// The rows sampled, and of them the rows in the list (by section id for a sectioned list).
    var sampled: Int64 = 0
    var matched: Int64 = 0
    var matchedBySection: [String: Int64] = [:]

    /// The most rows a sample reads: what an estimate costs, at most, whatever the list.
    static let size = 1_000
    /// The rows a sample reads at a time, and the rows of the list it wants to have seen before
    /// it stops: a page reads on until it has a page of rows (50, say), a sample until it has 20,
    /// so an estimate costs at most about two fifths of what its page costs to find its rows.
    static let round = 100
    static let enough: Int64 = 20
    /// The runs of the primary key a sample reads, spread over it, so that rows written at one
    /// time (the first thousand) do not stand for the whole table.
    static let runs = 4

    /// `matched` of `sampled` rows, scaled to `rows`; never less than `atLeast` (what a page
    /// showed), never more than `rows`.
    static func scaled(rows: Int64, sampled: Int64, matched: Int64, atLeast: Int64) -> Int64 {
        guard sampled > 0 else { return min(max(atLeast, 0), max(rows, atLeast)) }
        let guess = Int64((Double(rows) * Double(matched) / Double(sampled)).rounded())
        return max(atLeast, min(guess, rows))
    }

    /// The pk each run starts at, from the table's smallest and largest.
    static func starts(low: Int64, high: Int64) -> [Int64] {
        (0..<Int64(runs)).map { low + (high - low) / Int64(runs) * $0 }
    }
}
