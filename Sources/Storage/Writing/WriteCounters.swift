/// What the group-committing writer has done since the store opened.
///
/// `writes / commits` is the average batch size: above 1 means concurrent writes shared commits.
public struct WriteCounters: Sendable, Hashable {
    /// Writes committed and acknowledged as successful.
    public var writes: Int = 0
    /// Writes answered with an error (nothing of them was written).
    public var failedWrites: Int = 0
    /// Transactions committed by the writer (each one fsync with `synchronous=FULL`).
    public var commits: Int = 0
}
