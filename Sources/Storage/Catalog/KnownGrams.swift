/// The grams the writer knows to be in each collection's `SearchGrams` map, so that a write
/// sends only the grams it may lack.
///
/// The map almost never grows once a collection has some rows, so looking every gram up again
/// is wasted work for the writer.
///
/// What is known holds only while the writer is the file's only committer: the tables only
/// grow under this writer, but a restore replaces them and another process may rebuild them.
/// So it is kept with the file's commit counter (`CommitCounter`) as the writer's own last
/// commit left it, and forgotten when a transaction begins at any other count. Grams count as
/// known once the transaction that recorded them commits.
///
/// A gram is kept as its three Unicode scalars packed into 64 bits, 21 bits each. Each set
/// stops growing at `limit` grams.
struct KnownGrams {
    struct Sets {
        var trigrams = Set<UInt64>()

        var isEmpty: Bool { trigrams.isEmpty }
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
            tables[table] = known
        }
        counter = started &+ 1
    }

    private static func add(_ grams: Set<UInt64>, to known: inout Set<UInt64>) {
        guard known.count < limit else { return }
        known.formUnion(grams)
    }

    /// The gram of three scalars as a key; nil for any other length.
    static func key(_ scalars: ArraySlice<Unicode.Scalar>) -> UInt64? {
        guard scalars.count == 3 else { return nil }
        return scalars.reduce(0) { ($0 << 21) | UInt64($1.value) }
    }
}
