import Foundation

/// A value guarded by a lock.
///
/// An `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: on Linux the standard
/// library's Mutex waits on a raw futex that ThreadSanitizer cannot see, so every access under
/// it is reported as a race, and `scripts/sanitize.sh thread` stops at the first report.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
