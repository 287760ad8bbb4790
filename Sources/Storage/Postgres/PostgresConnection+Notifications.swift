import CLibPQ

/// LISTEN and NOTIFY: a connection that ran `LISTEN channel` receives what any session sends with
/// `NOTIFY channel, 'payload'` (or `pg_notify`) once that session commits.
/// https://www.postgresql.org/docs/current/libpq-notify.html
extension PostgresConnection {
    /// The connection's socket, to wait on with poll or epoll: readable when the server sent
    /// something, such as a notification. -1 when the connection is closed.
    var socket: Int32 { PQsocket(handle) }

    /// The notifications received so far and not yet returned, oldest first.
    ///
    /// Reads what the socket already holds without waiting for more; notifications that came in
    /// while another statement ran are kept by libpq and returned here too. Throws `.unavailable`
    /// when the connection is lost.
    func notifications() throws(StoreError) -> [(channel: String, payload: String)] {
        guard PQconsumeInput(handle) == 1 else { throw PostgresFailure(connection: handle).storeError }
        var received: [(channel: String, payload: String)] = []
        while let notification = PQnotifies(handle) {
            defer { PQfreemem(notification) }
            received.append((String(cString: notification.pointee.relname), String(cString: notification.pointee.extra)))
        }
        return received
    }
}
