import Domain

/// An item by its collection and id: what a kept answer read, and what a change touched.
public struct ItemAddress: Hashable, Sendable {
    public let collection: String
    public let id: EntityID

    public init(_ collection: String, _ id: EntityID) {
        self.collection = collection
        self.id = id
    }
}

/// One entry of the change log: its sequence and the item it changed.
typealias ChangedItem = (sequence: Int64, item: ItemAddress)

/// The items the change log names after `from`, each with the sequence of its newest change,
/// as far as this process has read the log (`through`).
///
/// What lets a kept answer outlive commits that did not touch it: an answer made at sequence
/// `S` from some items is still exact at `through` when none of them changed in `(S, through]`.
/// A detail kept while other items of its collection are written stays kept, where a key of
/// the collection's version dropped it at every write.
///
/// Complete or silent: every change in `(from, through]` is here. Where the log cannot say —
/// entries pruned before they were read, a restore that replaced the file, more changes at once
/// than `capacity` — the window starts again after them, and an answer made before its start is
/// not vouched for (`unchanged` is false: made again, never served stale).
struct RecentChanges: Sendable {
    private(set) var from: Int64
    private(set) var through: Int64
    private var newest: [ItemAddress: Int64] = [:]
    /// Entries kept at most; past it the older half of the window is forgotten (`from` moves up).
    let capacity: Int

    static let defaultCapacity = 50_000

    init(at sequence: Int64, capacity: Int = RecentChanges.defaultCapacity) {
        from = sequence
        through = sequence
        self.capacity = max(2, capacity)
    }

    var count: Int { newest.count }

    /// Whether none of `items` changed after `sequence`, up to `latest` (the newest sequence the
    /// caller knows of): false when one did, or when the window does not cover `(sequence, latest]`.
    func unchanged(_ items: [ItemAddress], since sequence: Int64, latest: Int64) -> Bool {
        guard sequence >= from, through >= latest else { return false }
        for item in items where (newest[item] ?? 0) > sequence { return false }
        return true
    }

    /// Adds the changes of the log after `start` through `end` (`changes`: all of them, in any
    /// order), as one read of the log or one commit found them. When they do not follow on from
    /// what is here (a gap: the log after `through` was not read), nothing is added and the next
    /// read of the log, which starts at `through`, brings them.
    mutating func record(_ changes: [ChangedItem], after start: Int64, through end: Int64) {
        guard start <= through, end > through else { return }
        for change in changes where change.sequence > through {
            newest[change.item] = max(newest[change.item] ?? 0, change.sequence)
        }
        through = end
        if newest.count > capacity { forgetOlderHalf() }
    }

    /// `record`s the log's entries after `start` through `end`; nil (the log or a commit could
    /// not name them all): the window starts again at `end`.
    mutating func follow(_ changes: [ChangedItem]?, after start: Int64, through end: Int64) {
        if let changes {
            record(changes, after: start, through: end)
        } else {
            restart(at: end)
        }
    }

    /// Starts the window again at `sequence`: nothing before it is vouched for.
    mutating func restart(at sequence: Int64) {
        newest.removeAll(keepingCapacity: true)
        through = max(through, sequence)
        from = through
    }

    /// Drops the entries in the older half of the window's sequences (`from` moves to its
    /// middle), again while more than `capacity` remain. A pass over the entries, no sort: it
    /// runs under the store's state lock, which every request takes.
    private mutating func forgetOlderHalf() {
        while newest.count > capacity && through - from > 1 {
            let cutoff = from + (through - from) / 2
            newest = newest.filter { $0.value > cutoff }
            from = cutoff
        }
    }
}
