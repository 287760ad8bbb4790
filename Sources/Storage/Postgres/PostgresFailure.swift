import CLibPQ

/// Why a PostgreSQL call failed: the server's SQLSTATE and message, before it becomes a `StoreError`.
///
/// The one place that turns a failed `PGresult` or connection into the `StoreError` every store
/// throws (`storeError`), and back (`init?(_:)`), so that a store can recognize a failure after
/// the connection threw it: `PostgresFailure(error)?.sqlstate == "23505"` is a unique violation.
///
/// Failures that describe the moment (the server is going away, out of resources, a lost
/// connection, a serialization failure or deadlock to retry) become `.unavailable`: a 503 with
/// Retry-After. Everything else becomes `.database` with a result code made from the SQLSTATE
/// (`resultCode(_:)`), which `StoreError.isTransient` never takes for a transient SQLite code.
/// SQLSTATEs: https://www.postgresql.org/docs/current/errcodes-appendix.html
struct PostgresFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Five characters of [0-9A-Z]; nil when libpq failed on its own, without a server's answer.
    var sqlstate: String?
    /// The server's message (and its DETAIL line), or libpq's: for logs only.
    var message: String
    /// Whether trying again, on this or a new connection, may succeed.
    var isTransient: Bool

    /// `connectionLost`: libpq reports the connection as `CONNECTION_BAD`; only a new one can help.
    init(sqlstate: String?, message: String, connectionLost: Bool = false) {
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

    var description: String { "PostgreSQL\(sqlstate.map { " \($0)" } ?? ""): \(message)" }

    /// What a store throws: `.unavailable` when transient, otherwise `.database` with `resultCode(sqlstate)`.
    /// Both messages are `description`, so the SQLSTATE shows in logs either way.
    var storeError: StoreError {
        isTransient ? .unavailable(description) : .database(resultCode: Self.resultCode(sqlstate), message: description)
    }

    /// The failure a `StoreError` came from, when `storeError` made it; nil for any other error.
    init?(_ error: StoreError) {
        let text: String
        let code: Int32?
        switch error {
        case .database(let resultCode, let message): (text, code) = (message, resultCode)
        case .unavailable(let message): (text, code) = (message, nil)
        default: return nil
        }
        guard let (sqlstate, message) = Self.parse(text) else { return nil }
        if let code, code != Self.resultCode(sqlstate) { return nil }
        self.sqlstate = sqlstate
        self.message = message
        isTransient = code == nil
    }

    /// Splits `description` back into its SQLSTATE and message.
    private static func parse(_ text: String) -> (String?, String)? {
        let prefix = "PostgreSQL"
        guard text.hasPrefix(prefix) else { return nil }
        let rest = text.dropFirst(prefix.count)
        if rest.hasPrefix(": ") { return (nil, String(rest.dropFirst(2))) }
        guard rest.hasPrefix(" "), let sqlstate = valid(String(rest.dropFirst().prefix(5))) else { return nil }
        let after = rest.dropFirst(6)
        guard after.hasPrefix(": ") else { return nil }
        return (sqlstate, String(after.dropFirst(2)))
    }

    // MARK: The result code of a `.database` failure

    /// The result code of a non-transient failure: `0x4000_0000 | base36(sqlstate) << 4`.
    ///
    /// Stable (the same SQLSTATE gives the same code on every machine and version) and one code per
    /// SQLSTATE: a SQLSTATE is a base-36 number of five digits, and 36^5 fit 26 bits. Bit 30 keeps
    /// it apart from every SQLite extended code (below 2^16), and the low four bits stay 0, so
    /// `code & 0xFF` is a multiple of 16: never one of SQLite's transient primary codes (5...15)
    /// that `StoreError.isTransient` looks for. No SQLSTATE (libpq failed alone) is encoded as
    /// 00000, successful completion, which names no error. 23505 is 0x4357_E150 (1_129_832_784).
    static func resultCode(_ sqlstate: String?) -> Int32 {
        var value: Int32 = 0
        for byte in (sqlstate.flatMap(valid) ?? none).utf8 {
            value = value * 36 + Int32(digit(byte) ?? 0)
        }
        return marker | value << 4
    }

    private static let marker: Int32 = 0x4000_0000
    private static let none = "00000"

    private static func digit(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    private static func valid(_ sqlstate: String) -> String? {
        sqlstate.utf8.count == 5 && sqlstate.utf8.allSatisfy { digit($0) != nil } ? sqlstate : nil
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
