import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Listens for the commits of every instance on one PostgreSQL database (`LISTEN`), on a
/// connection and a thread of its own, and counts them: `generation` moves on each notification.
///
/// A store keeps versions read at one generation and reads them again when it moved. While the
/// listener is not connected (`generation` nil: the database is down, or it is reconnecting)
/// nothing is current, and the store reads the versions at every call; on connecting again the
/// generation moves, so nothing read before counts.
final class PostgresListener: Sendable {
    private struct State {
        var generation: UInt64?
        var keysGeneration: UInt64?
        var counter: UInt64 = 0
        var isStopped = false
    }

    private let state = Locked(State())
    let url: String
    let channel: String

    init(url: String, channel: String) {
        self.url = url
        self.channel = channel
        let thread = Thread { [self] in run() }
        thread.name = "rowserver.postgres.listener"
        thread.start()
    }

    /// Moves on every notification; nil while not listening.
    var generation: UInt64? { state.withLock { $0.generation } }

    /// Moves on a notification that keys changed (the payload `keys`, `KeyStore`'s), and when
    /// the listener connects or loses its connection; nil while not listening. Commits of items
    /// leave it: under writers, every batch of every instance made each instance read its
    /// keys again.
    var keysGeneration: UInt64? { state.withLock { $0.keysGeneration } }

    /// Ends the thread within half a second.
    func stop() {
        state.withLock { $0.isStopped = true }
    }

    private var isStopped: Bool { state.withLock { $0.isStopped } }

    private func advance(connected: Bool, keys: Bool = true) {
        state.withLock { state in
            state.counter &+= 1
            state.generation = connected ? state.counter : nil
            if keys { state.keysGeneration = state.generation }
        }
    }

    private func run() {
        var backoff = 0.1
        while !isStopped {
            do {
                let connection = try PostgresConnection(url: url)
                try connection.execute("LISTEN \(channel)")
                advance(connected: true)
                backoff = 0.1
                try listen(on: connection)
            } catch {
                advance(connected: false)
                Thread.sleep(forTimeInterval: backoff)
                backoff = min(backoff * 2, 2)
            }
        }
        advance(connected: false)
    }

    /// Waits for notifications until stopped; throws when the connection fails.
    private func listen(on connection: PostgresConnection) throws {
        while !isStopped {
            var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 500)
            if ready < 0 && errno != EINTR { throw StoreError.unavailable("poll failed on the listener's connection") }
            guard ready > 0 else { continue }
            let received = try connection.notifications()
            if !received.isEmpty { advance(connected: true, keys: received.contains { $0.payload == KeyStore.changedPayload }) }
            guard connection.isHealthy else { throw StoreError.unavailable("the listener's connection closed") }
        }
    }
}
