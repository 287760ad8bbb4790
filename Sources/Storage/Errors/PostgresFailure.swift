import CLibPQ

/// Why PostgreSQL (or libpq) failed: the server's SQLSTATE and message, as `StoreError.postgres`.
///
/// The one place that turns a failed `PGresult` or connection into a store error. The SQLSTATE
/// stays a string, as PostgreSQL defines it: `error == .postgres(f)` with `f.sqlstate == "23505"`
/// is a unique violation. Failures that describe the moment (the server is going away, out of
/// resources, a lost connection, a serialization failure or deadlock to retry) are transient: a
/// 503 with Retry-After rather than a 500.
/// SQLSTATEs: https://www.postgresql.org/docs/current/errcodes-appendix.html
public struct PostgresFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Five characters of [0-9A-Z]; nil when libpq failed on its own, without a server's answer.
    public var sqlstate: String?
    /// The server's message (and its DETAIL line), or libpq's: for logs only.
    public var message: String
    /// Whether trying again, on this or a new connection, may succeed.
    public var isTransient: Bool

    /// `connectionLost`: libpq reports the connection as `CONNECTION_BAD`; only a new one can help.
    public init(sqlstate: String?, message: String, connectionLost: Bool = false) {
        let sqlstate = sqlstate.flatMap(Self.valid)
        self.sqlstate = sqlstate
        self.message = message
        isTransient = connectionLost || sqlstate.map(Self.isTransient) ?? false
    }

    /// SQLSTATEs of the moment rather than of the statement or its data.
    static func isTransient(_ sqlstate: String) -> Bool {
        // 08: connection exception; 53: insufficient resources (disk full, out of memory, too many connections).
        sqlstate.hasPrefix("08") || sqlstate.hasPrefix("53") || transientStates.contains(sqlstate)
    }

    /// Admin shutdown, crash shutdown, cannot connect now, serialization failure, deadlock, lock not available.
    static let transientStates: Set<String> = ["57P01", "57P02", "57P03", "40001", "40P01", "55P03"]

    public var description: String { "PostgreSQL\(sqlstate.map { " \($0)" } ?? ""): \(message)" }

    /// What a store throws.
    var storeError: StoreError { .postgres(self) }

    private static func valid(_ sqlstate: String) -> String? {
        sqlstate.utf8.count == 5 && sqlstate.utf8.allSatisfy(isSQLStateCharacter) ? sqlstate : nil
    }

    private static func isSQLStateCharacter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}

extension PostgresFailure {
    /// The failure of a statement: `result` is what libpq returned (nil when it returned none:
    /// out of memory, or the command could not be sent), not yet cleared.
    init(result: OpaquePointer?, connection: OpaquePointer) {
        guard let result else {
            let reason = Self.text(PQerrorMessage(connection)) ?? "libpq returned no result (out of memory?)"
            // No result is the moment, not the statement: a lost connection, or memory that may come back.
            self.init(sqlstate: nil, message: reason, connectionLost: true)
            return
        }
        let field = { (code: Int32) in Self.text(PQresultErrorField(result, code)) }
        var message = field(CLibPQ_DIAG_MESSAGE_PRIMARY) ?? Self.text(PQresultErrorMessage(result)) ?? ""
        if message.isEmpty { message = "unexpected result status \(Self.text(PQresStatus(PQresultStatus(result))) ?? "?")" }
        if let detail = field(CLibPQ_DIAG_MESSAGE_DETAIL) { message += " (\(detail))" }
        self.init(sqlstate: field(CLibPQ_DIAG_SQLSTATE), message: message, connectionLost: PQstatus(connection) == CONNECTION_BAD)
    }

    /// The failure of the connection itself: it could not be opened, or it was lost while reading.
    init(connection: OpaquePointer) {
        let message = Self.text(PQerrorMessage(connection)) ?? "the connection failed"
        self.init(sqlstate: nil, message: message, connectionLost: PQstatus(connection) == CONNECTION_BAD)
    }

    /// libpq's text on one line: its messages end with a newline and indent their hints with one.
    private static func text(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        let lines = String(cString: pointer).split(whereSeparator: \.isNewline).map { $0.trimmingPrefix(while: \.isWhitespace) }
        let joined = lines.filter { !$0.isEmpty }.joined(separator: " ")
        return joined.isEmpty ? nil : joined
    }
}
