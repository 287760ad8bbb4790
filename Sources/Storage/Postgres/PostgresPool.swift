import Foundation

/// The PostgreSQL connections of one store: at most `maximum` open at once; a caller that finds
/// none idle and none left to open waits up to `wait` seconds, then gets `.unavailable` (503).
///
/// A connection that broke (the server restarted, the network failed) is dropped when it comes
/// back, not reused; the next caller opens a new one, so service resumes by itself once the
/// database answers again.
final class PostgresPool: @unchecked Sendable {
    private struct State {
        var idle: [PostgresConnection] = []
        var open = 0
        var isClosed = false
    }

    let url: String
    let maximum: Int
    let wait: Double
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var state = State()

    /// The advisory lock every write transaction of every instance takes before it writes to the
    /// change log (a group commit, once its writes are made; a load or a seed, first): sequences
    /// are handed out in commit order, and a feed read never skips one that commits later.
    static let writeLock: Int64 = 0x726F_7773_6572_7665  // "rowserve"

    /// Takes `writeLock` until the transaction ends.
    static let lockWritersSQL = "SELECT pg_advisory_xact_lock(\(writeLock))"

    init(url: String, maximum: Int = 32, wait: Double = 5) {
        self.url = url
        self.maximum = max(1, maximum)
        self.wait = wait
    }

    /// Runs `body` on a connection no one else is using.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try checkout()
        defer { checkin(connection) }
        return try body(connection)
    }

    /// Closes the idle connections; later calls throw `.unavailable`.
    func close() {
        condition.lock()
        state.isClosed = true
        let idle = state.idle
        state.open -= idle.count
        state.idle.removeAll()
        condition.broadcast()
        condition.unlock()
        withExtendedLifetime(idle) {}
    }

    private func checkout() throws(StoreError) -> PostgresConnection {
        let deadline = Date().addingTimeInterval(wait)
        condition.lock()
        while true {
            if state.isClosed {
                condition.unlock()
                throw StoreError.unavailable("the store is closed")
            }
            if let connection = state.idle.popLast() {
                condition.unlock()
                return connection
            }
            if state.open < maximum {
                state.open += 1
                condition.unlock()
                do {
                    return try PostgresConnection(url: url)
                } catch {
                    condition.lock()
                    state.open -= 1
                    condition.signal()
                    condition.unlock()
                    throw error
                }
            }
            if !condition.wait(until: deadline) {
                condition.unlock()
                throw StoreError.unavailable("all \(maximum) PostgreSQL connections stayed busy for \(wait) s")
            }
        }
    }

    /// Takes a connection back. One that broke is dropped, and the idle ones with it: they were
    /// opened before the failure (a server restart ends them all), and each would fail its next
    /// caller with a 503 before it could be replaced.
    private func checkin(_ connection: PostgresConnection) {
        condition.lock()
        var dropped: [PostgresConnection] = []
        if connection.isHealthy && !state.isClosed {
            state.idle.append(connection)
        } else {
            state.open -= 1
            if !connection.isHealthy {
                dropped = state.idle
                state.open -= dropped.count
                state.idle.removeAll()
            }
        }
        condition.broadcast()
        condition.unlock()
        withExtendedLifetime(dropped) {}
    }
}

extension PostgresPool: SQLDatabase {
    func reading<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try withConnection { connection in
            try Self.transaction(connection, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { try body(connection) }
        }
    }

    func writing<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try writing(locked: true, body)
    }

    /// `locked`: the writers' lock is taken with BEGIN, in one round trip; without, `body` takes
    /// it itself when it comes to the change log (`PostgresStore`'s group commit).
    func writing<T>(locked: Bool, _ body: (any SQLConnection) throws -> T) throws -> T {
        try withConnection { connection in
            try Self.transaction(connection, begin: locked ? "BEGIN; " + Self.lockWritersSQL : "BEGIN") {
                try body(connection)
            }
        }
    }

    /// `body` between `begin` and COMMIT; ROLLBACK when it throws. A COMMIT that the server
    /// answers with ROLLBACK (a statement in it failed) throws.
    ///
    /// `begin` is a script (statements without parameters, separated by semicolons), sent in
    /// one round trip: a write's BEGIN and its lock take one.
    static func transaction<T>(_ connection: PostgresConnection, begin: String, _ body: () throws -> T) throws -> T {
        try connection.executeScript(begin)
        let value: T
        do {
            value = try body()
        } catch {
            // Should the ROLLBACK fail too, the connection is lost or unusable; `body`'s error says more.
            _ = try? connection.query("ROLLBACK")
            throw error
        }
        let commit = try connection.query("COMMIT")
        guard commit.commandStatus == "COMMIT" else {
            throw PostgresFailure(sqlstate: "25P02", message: "the transaction was rolled back (server answered \(commit.commandStatus))").storeError
        }
        return value
    }
}
