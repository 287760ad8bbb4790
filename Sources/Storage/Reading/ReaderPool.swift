/// The store's own read connections (`ReaderConnection`): a read takes an idle one (or opens
/// one), and gives it back.
///
/// Never waits: as many connections are open at once as reads run at once, which the server's
/// threads bound; past `maximumIdle` a returned connection is closed. Closing the pool closes the
/// idle ones, and a connection returned after that is closed too.
final class ReaderPool: Sendable {
    private struct State {
        var idle: [ReaderConnection] = []
        var isClosed = false
    }

    private let path: String
    private let options: CatalogStore.Options
    private let maximumIdle: Int
    /// Connections move between threads only through this lock, one user at a time.
    private let state = Locked(State())

    init(path: String, options: CatalogStore.Options, maximumIdle: Int = 8) {
        self.path = path
        self.options = options
        self.maximumIdle = maximumIdle
    }

    /// Runs `body` on a connection no other read is using.
    func read<T>(_ body: (ReaderConnection) throws -> T) throws -> T {
        var isClosed = false
        let reused = state.withLock { state -> ReaderConnection? in
            isClosed = state.isClosed
            return state.idle.popLast()
        }
        if isClosed { throw StoreError.unavailable("the store is closed") }
        let connection = try reused ?? ReaderConnection(path: path, options: options)
        defer {
            state.withLock { state in
                if !state.isClosed && state.idle.count < maximumIdle { state.idle.append(connection) }
            }
        }
        return try body(connection)
    }

    /// Closes the idle connections (each `deinit` closes its handle); reads after this throw
    /// `unavailable`.
    func close() {
        let idle = state.withLock { state in
            state.isClosed = true
            defer { state.idle.removeAll() }
            return state.idle
        }
        withExtendedLifetime(idle) {}
    }
}
