import Foundation
import GRDB

/// Who sent a write and the key it named (`Idempotency-Key`): the key is the sender's own,
/// so two API keys may use the same one without meeting.
public struct IdempotencyMark: Sendable, Hashable {
    public var principal: String
    public var key: String

    public init(principal: String, key: String) {
        self.principal = principal
        self.key = key
    }
}

/// An answer kept to be sent again: status, the handler's headers and body.
public struct StoredAnswer: Sendable, Equatable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func == (a: StoredAnswer, b: StoredAnswer) -> Bool {
        a.status == b.status && a.body == b.body && a.headers.map { [$0.name, $0.value] } == b.headers.map { [$0.name, $0.value] }
    }
}

/// The `Idempotency-Key`s of a database file, in its `idempotency_keys` table, kept for
/// `retention` seconds from their first use.
///
/// A key moves through three states. `pending`: reserved by a request that is running (or that
/// died before its write committed: the write and the next state commit together, so a pending
/// key never hides a write that happened). `applied`: the write committed, in the same
/// transaction (`markApplied`); its answer may not be stored yet. `done`: the answer is stored
/// and every retry with the same request gets it again.
public final class IdempotencyStore: Sendable {
    private let database: any SQLDatabase
    private let lastPurge = Locked<Int64>(0)
    /// Seconds a key is remembered from its first use.
    public let retention: Int64

    init(database: any SQLDatabase, retention: Int64 = 86_400) {
        self.database = database
        self.retention = retention
    }

    static let createTable = """
        CREATE TABLE IF NOT EXISTS idempotency_keys (
            principal TEXT NOT NULL, key TEXT NOT NULL, fingerprint BLOB NOT NULL, state TEXT NOT NULL,
            collection TEXT, item_id TEXT, operation TEXT, status INTEGER, headers TEXT, body BLOB,
            created_at INTEGER NOT NULL, PRIMARY KEY (principal, key)) WITHOUT ROWID
        """

    public typealias Outcome = IdempotencyOutcome

    /// Looks the key up and reserves it when it is new, in one transaction. A key older than
    /// `retention` counts as new. `fingerprint`: a digest of the request's method, path and body.
    public func begin(_ mark: IdempotencyMark, fingerprint: [UInt8], now: Int64) throws(StoreError) -> Outcome {
        return try StoreError.catching {
            let outcome = try database.writing { db -> Outcome in
                let found = try db.first(
                    "SELECT created_at, fingerprint, state, status, headers, body, collection, item_id, operation FROM idempotency_keys WHERE principal = ? AND key = ?",
                    [mark.principal.databaseValue, mark.key.databaseValue]
                ) { row -> Outcome? in
                    guard (row.integer(0) ?? 0) >= now - retention else { return nil }
                    guard row.bytes(1) == fingerprint else { return .mismatch }
                    switch row.text(2) {
                    case "done":
                        return .replay(
                            StoredAnswer(
                                status: row.integer(3).map(Int.init) ?? 500, headers: Self.headers(from: row.text(4) ?? ""), body: row.bytes(5) ?? [])
                        )
                    case "applied":
                        return .applied(collection: row.text(6) ?? "", itemID: row.text(7) ?? "", operation: row.text(8) ?? "")
                    default:
                        return .fresh
                    }
                }
                if let found { return found }
                try db.run(
                    """
                    INSERT INTO idempotency_keys (principal, key, fingerprint, state, created_at) VALUES (?, ?, ?, 'pending', ?)
                    ON CONFLICT (principal, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'pending', collection = NULL,
                    item_id = NULL, operation = NULL, status = NULL, headers = NULL, body = NULL, created_at = excluded.created_at
                    """, [mark.principal.databaseValue, mark.key.databaseValue, Data(fingerprint).databaseValue, now.databaseValue])
                return .fresh
            }
            try purgeNow(now: now)
            return outcome
        }
    }

    /// Stores the answer of a key's write: later retries get it again.
    public func complete(_ mark: IdempotencyMark, answer: StoredAnswer) throws(StoreError) {
        try StoreError.catching {
            try database.writing { db in
                try db.run(
                    "UPDATE idempotency_keys SET state = 'done', status = ?, headers = ?, body = ? WHERE principal = ? AND key = ?",
                    [
                        answer.status.databaseValue, Self.text(of: answer.headers).databaseValue, Data(answer.body).databaseValue,
                        mark.principal.databaseValue, mark.key.databaseValue,
                    ])
            }
        }
    }

    /// Forgets a reservation whose request wrote nothing (it failed): a retry runs it again.
    public func release(_ mark: IdempotencyMark) throws(StoreError) {
        try StoreError.catching {
            try database.writing { db in
                try db.run(
                    "DELETE FROM idempotency_keys WHERE principal = ? AND key = ? AND state = 'pending'",
                    [mark.principal.databaseValue, mark.key.databaseValue])
            }
        }
    }

    /// Inside a write's transaction: its key's write happened, on this item.
    static func markApplied(_ db: any SQLConnection, _ mark: IdempotencyMark, collection: String, itemID: String, operation: String) throws {
        try db.run(
            "UPDATE idempotency_keys SET state = 'applied', collection = ?, item_id = ?, operation = ? WHERE principal = ? AND key = ?",
            [collection.databaseValue, itemID.databaseValue, operation.databaseValue, mark.principal.databaseValue, mark.key.databaseValue])
    }

    /// Deletes the keys past their retention, at most once a minute.
    private func purgeNow(now: Int64) throws {
        let due = lastPurge.withLock { last in
            guard now - last >= 60 else { return false }
            last = now
            return true
        }
        guard due else { return }
        try database.writing { db in
            try db.run("DELETE FROM idempotency_keys WHERE created_at < ?", [(now - retention).databaseValue])
        }
    }

    /// Keys held now, expired or not (for tests).
    public func count() throws(StoreError) -> Int {
        return try StoreError.catching { try database.reading { db in Int(try db.integer("SELECT count(*) FROM idempotency_keys", []) ?? 0) } }
    }

    /// Header lines as `name: value\n` (a value holds no line break: the server never sends one).
    static func text(of headers: [(name: String, value: String)]) -> String {
        headers.map { "\($0.name): \($0.value)\n" }.joined()
    }

    static func headers(from text: String) -> [(name: String, value: String)] {
        text.split(separator: "\n").compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[line.index(after: colon)...].dropFirst()))
        }
    }
}

/// What a request that names a key finds.
public enum IdempotencyOutcome: Sendable, Equatable {
    /// The key is new (or was pending from a request that never wrote): reserved; run the write.
    case fresh
    /// The same request was answered: send this again.
    case replay(StoredAnswer)
    /// The same request's write committed but its answer was not stored (the server
    /// stopped in between): answer from the item as it is now.
    case applied(collection: String, itemID: String, operation: String)
    /// The key was used with another request (method, path or body).
    case mismatch
}
