/// The grams the writer knows to be in each collection's `SearchGrams` map and `SubtitleGrams`
/// set, so that a write sends only the grams they may lack.
///
/// Every write recorded all the trigrams of its texts and the 3- and 4-grams of its subtitle,
/// and SQLite looked each one up to find it there already: a fifth of a write's time in the
/// writer, for a map that almost never grows once a collection has some rows.
///
/// What is known holds only while the writer is the file's only committer: the tables only
/// grow under this writer, but a restore replaces them and another process may rebuild them.
/// So it is kept with the file's commit counter (`CommitCounter`) as the writer's own last
/// commit left it, and forgotten when a transaction begins at any other count. Grams count as
/// known once the transaction that recorded them commits.
///
/// A gram is kept as its Unicode scalars packed into 64 bits: three scalars of 21 bits, or four
/// of 16 (a 4-gram with a scalar beyond the Basic Multilingual Plane is never kept, so always
/// sent). Each set stops growing at `limit` grams.
struct KnownGrams {
    struct Sets {
        var trigrams = Set<UInt64>()
        var subtitleTrigrams = Set<UInt64>()
        var subtitleFourGrams = Set<UInt64>()

        var isEmpty: Bool { trigrams.isEmpty && subtitleTrigrams.isEmpty && subtitleFourGrams.isEmpty }
    }

    static let limit = 100_000

    private(set) var tables: [String: Sets] = [:]
    /// The commit counter after the writer's last commit; nil before its first.
    private var counter: UInt32?

    /// Starts a transaction that began at commit count `current`: forgets everything when the
    /// count is not the one the writer's last commit left. (A transaction of the writer's that
    /// rolled back committed nothing, and leaves the count and what is known as they were.)
    mutating func begin(at current: UInt32) {
        if counter != current { tables.removeAll() }
    }

    /// Records what a transaction that began at `started` and committed recorded: that commit
    /// is the counter's next value.
    mutating func commit(_ learned: [String: Sets], startedAt started: UInt32) {
        for (table, sets) in learned where !sets.isEmpty {
            var known = tables[table] ?? Sets()
            Self.add(sets.trigrams, to: &known.trigrams)
            Self.add(sets.subtitleTrigrams, to: &known.subtitleTrigrams)
            Self.add(sets.subtitleFourGrams, to: &known.subtitleFourGrams)
            tables[table] = known
        }
        counter = started &+ 1
    }

    private static func add(_ grams: Set<UInt64>, to known: inout Set<UInt64>) {
        guard known.count < limit else { return }
        known.formUnion(grams)
    }

    /// The gram of three or four scalars as a key; nil when it does not fit in 64 bits.
    static func key(_ scalars: ArraySlice<Unicode.Scalar>) -> UInt64? {
        switch scalars.count {
        case 3:
            return scalars.reduce(0) { ($0 << 21) | UInt64($1.value) }
        case 4:
            guard scalars.allSatisfy({ $0.value <= 0xFFFF }) else { return nil }
            return scalars.reduce(0) { ($0 << 16) | UInt64($1.value) }
        default:
            return nil
        }
    }
}
