import CMicroHTTPD
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One connection's request clock, shared by libmicrohttpd's threads and the watchdog.
final class ConnectionClock: Sendable {
    let socket: Int32
    /// Monotonic nanoseconds when the current request's clock started.
    let since: Atomic<UInt64>
    /// A handler runs or a response is being sent: no deadline.
    let isAnswering = Atomic<Bool>(false)
    /// Written by the watchdog only, under its table lock.
    let isDropped = Atomic<Bool>(false)

    init(socket: Int32, since: UInt64) {
        self.socket = socket
        self.since = Atomic(since)
    }

    /// The clock kept in `connection`'s socket context, if it has one.
    static func of(_ connection: OpaquePointer) -> ConnectionClock? {
        guard let context = CMicroHTTPD_connection_socket_context(connection) else { return nil }
        return Unmanaged<ConnectionClock>.fromOpaque(context).takeUnretainedValue()
    }
}

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
///
/// Each connection's clock lives in libmicrohttpd's `socket_context` for that connection, so
/// the per-request bookkeeping is two atomic stores: the table and its lock are touched when a
/// connection opens or closes and by the scan, never per request.
final class RequestDeadlineWatchdog: Sendable {
    let deadlineNanoseconds: UInt64
    private let clocks = Locked<[ObjectIdentifier: ConnectionClock]>([:])
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

    /// A new connection's clock, watched until `closed`; nil for an unknown socket.
    func opened(socket: Int32) -> ConnectionClock? {
        guard socket >= 0 else { return nil }
        let clock = ConnectionClock(socket: socket, since: monotonicNanoseconds())
        clocks.withLock { $0[ObjectIdentifier(clock)] = clock }
        return clock
    }

    /// The request is complete and about to be answered.
    func answering(_ connection: OpaquePointer) {
        ConnectionClock.of(connection)?.isAnswering.store(true, ordering: .releasing)
    }

    /// The response is out (or the request ended otherwise): the next request's clock starts.
    /// The start is stored before the flag clears, so a scan that sees the flag clear sees it.
    func answered(_ connection: OpaquePointer) {
        guard let clock = ConnectionClock.of(connection) else { return }
        clock.since.store(monotonicNanoseconds(), ordering: .releasing)
        clock.isAnswering.store(false, ordering: .releasing)
    }

    func closed(_ clock: ConnectionClock) {
        _ = clocks.withLock { $0.removeValue(forKey: ObjectIdentifier(clock)) }
    }

    func dropLateRequests() {
        let dropped = clocks.withLock { table -> Int in
            let now = monotonicNanoseconds()
            var count = 0
            for clock in table.values where !clock.isDropped.load(ordering: .relaxed) {
                guard !clock.isAnswering.load(ordering: .acquiring) else { continue }
                // A clock restarted after `now` was read is later than `now`: not late.
                let since = clock.since.load(ordering: .acquiring)
                guard now > since, now - since > deadlineNanoseconds else { continue }
                shutdown(clock.socket, Int32(SHUT_RDWR))
                clock.isDropped.store(true, ordering: .relaxed)
                count += 1
            }
            return count
        }
        if dropped > 0 { droppedCount.add(dropped, ordering: .relaxed) }
    }
}
