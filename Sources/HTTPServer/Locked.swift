import Foundation

/// A value behind a lock.
///
/// `Synchronization.Mutex` would do, but on Linux it waits on a futex that ThreadSanitizer
/// cannot see, so TSan reports races that are not there (seen in 2 of 5 runs of the storage
/// suite). An `NSLock` is a pthread mutex, which TSan understands; the cost is the same here.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
