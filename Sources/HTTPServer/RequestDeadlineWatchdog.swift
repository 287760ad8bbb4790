import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Drops connections whose request is not complete within `deadline` of its start: the
/// bound that libmicrohttpd 0.9.75 lacks, since its own timeout is idle-only and a client
/// trickling one header line or one body byte at a time resets it forever.
///
/// A request's clock starts when the connection opens, and again each time a response has
/// been sent (so it covers the wait for the next request on a keep-alive connection as well
/// as the request itself); it stops while a handler runs and its response is sent. Slowloris
/// headers never reach the access handler, so the watchdog acts from its own thread: it shuts
/// the late socket down (`shutdown`, not `close`), libmicrohttpd sees the hang-up in its
/// event loop and closes the connection the ordinary way.
///
/// Why this cannot hit another connection's socket: an entry leaves the table in the
/// close notification, which libmicrohttpd sends before it closes the socket, and the watchdog
/// shuts sockets down only under the same lock; so a descriptor in the table is still open and
/// still that connection's.
final class RequestDeadlineWatchdog: Sendable {
    private struct Entry {
        var socket: Int32
        /// Monotonic nanoseconds when the current request's clock started.
        var since: UInt64
        /// A handler runs or a response is being sent: no deadline.
        var isAnswering = false
        var isDropped = false
    }

    let deadlineNanoseconds: UInt64
    private let entries = Locked<[UInt: Entry]>([:])
    private let stopped = Atomic<Bool>(false)
    private let droppedCount = Atomic<Int>(0)

    /// `deadline` in seconds; the watchdog checks `deadline / 8` apart, but at least every
    /// 250 ms and at most every 50 ms, so a late request is dropped within 250 ms of its deadline
    /// (a scan of a few thousand entries takes well under a millisecond).
    init(deadline: Double) {
        deadlineNanoseconds = UInt64(max(0.001, deadline) * 1e9)
    }

    /// Connections dropped for their deadline since start.
    var dropped: Int { droppedCount.load(ordering: .relaxed) }

    func start() {
        let interval = min(250_000, max(50_000, deadlineNanoseconds / 8_000))
        let thread = Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                usleep(UInt32(interval))
                dropLateRequests()
            }
        }
        thread.name = "rowserver.deadlines"
        thread.start()
    }

    /// Ends the watchdog's thread within one check interval.
    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    func opened(_ connection: OpaquePointer, socket: Int32) {
        guard socket >= 0 else { return }
        let entry = Entry(socket: socket, since: monotonicNanoseconds())
        entries.withLock { $0[UInt(bitPattern: connection)] = entry }
    }

    /// The request is complete and about to be answered.
    func answering(_ connection: OpaquePointer) {
        entries.withLock { $0[UInt(bitPattern: connection)]?.isAnswering = true }
    }

    /// The response is out (or the request ended otherwise): the next request's clock starts.
    func answered(_ connection: OpaquePointer) {
        let now = monotonicNanoseconds()
        entries.withLock { table in
            let key = UInt(bitPattern: connection)
            table[key]?.isAnswering = false
            table[key]?.since = now
        }
    }

    func closed(_ connection: OpaquePointer) {
        _ = entries.withLock { $0.removeValue(forKey: UInt(bitPattern: connection)) }
    }

    func dropLateRequests() {
        let dropped = entries.withLock { table -> Int in
            // Read under the lock: a clock restarted between an earlier reading and the lock
            // would be later than `now`.
            let now = monotonicNanoseconds()
            var count = 0
            for (key, entry) in table where !entry.isAnswering && !entry.isDropped && now > entry.since + deadlineNanoseconds {
                shutdown(entry.socket, Int32(SHUT_RDWR))
                table[key]?.isDropped = true
                count += 1
            }
            return count
        }
        if dropped > 0 { droppedCount.add(dropped, ordering: .relaxed) }
    }
}
