/// The `Idempotency-Key`s of a store's writes: SQLite's `IdempotencyStore`, or PostgreSQL's.
/// A key is reserved (`begin`), then answered (`complete`) or let go (`release`).
public protocol IdempotencyRecords: Sendable {
    func begin(_ mark: IdempotencyMark, fingerprint: [UInt8], now: Int64) throws(StoreError) -> IdempotencyOutcome
    func complete(_ mark: IdempotencyMark, answer: StoredAnswer) throws(StoreError)
    func release(_ mark: IdempotencyMark) throws(StoreError)
}

extension IdempotencyStore: IdempotencyRecords {}
