import Foundation

/// Values kept by key, made once and shared by every thread: at most `limit` of them, past which
/// the memo empties itself and starts again, so its memory stays bounded whatever the keys (a
/// search's text can be part of one).
///
/// For work a request would repeat with the same inputs: a list's fingerprint and links, a table
/// page's head, a page's SQL texts. A value is made outside the lock; two threads that miss
/// at once both make it, and either one is kept (they are equal).
///
/// `@unchecked Sendable` because every access to `kept` goes through `lock` (Domain imports
/// Foundation only, so no `Mutex`).
public final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    public let limit: Int
    private let lock = NSLock()
    private var kept: [Key: Value] = [:]

    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The value kept for `key`, or the one `make` makes, kept.
    public func value(for key: Key, make: () -> Value) -> Value {
        if let found = lock.withLock({ kept[key] }) { return found }
        let made = make()
        lock.withLock {
            if kept.count >= limit { kept.removeAll(keepingCapacity: true) }
            kept[key] = made
        }
        return made
    }

    /// How many values are kept (for tests).
    public var count: Int { lock.withLock { kept.count } }
}
