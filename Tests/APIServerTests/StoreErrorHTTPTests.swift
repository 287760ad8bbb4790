import APIServer
import DemoData
import Domain
import HTTPServer
import Storage
import Testing

/// Every store failure's answer: what may pass is a 503, a bug or a damaged database a 500,
/// and no store message reaches the client.
@Suite("Store errors as HTTP answers", .runsOnce("no store"))
struct StoreErrorHTTPTests {
    static let id = EntityID.generate(kind: .product)

    static let cases: [(StoreError, Int, String)] = [
        (.missing(collection: "products", id), 404, "NOT_FOUND"),
        (.versionMismatch(current: 3), 412, "PRECONDITION_FAILED"),
        (.invalidReference(field: "departmentID", id: id), 422, "VALIDATION_FAILED"),
        (.stillReferenced("people refer to it"), 409, "CONFLICT"),
        (.changesExpired(oldestRetained: 9), 410, "CHANGES_EXPIRED"),
        (.unavailable("the writer stopped"), 503, "SERVICE_UNAVAILABLE"),
        (.sqlite(SQLiteFailure(extendedResultCode: 5, message: "database is locked")), 503, "SERVICE_UNAVAILABLE"),
        // SQLITE_BUSY_RECOVERY (5 | 1 << 8): the extended code of a busy database.
        (.sqlite(SQLiteFailure(extendedResultCode: 261, message: "busy recovery")), 503, "SERVICE_UNAVAILABLE"),
        (.sqlite(SQLiteFailure(extendedResultCode: 13, message: "database or disk is full")), 503, "SERVICE_UNAVAILABLE"),
        (.sqlite(SQLiteFailure(extendedResultCode: 10, message: "disk I/O error")), 503, "SERVICE_UNAVAILABLE"),
        (.sqlite(SQLiteFailure(extendedResultCode: 11, message: "database disk image is malformed")), 500, "INTERNAL_ERROR"),
        // SQLITE_CONSTRAINT_UNIQUE (19 | 8 << 8): a write the store should have prevented.
        (.sqlite(SQLiteFailure(extendedResultCode: 2067, message: "UNIQUE constraint failed: products.id")), 500, "INTERNAL_ERROR"),
        (.sqlite(SQLiteFailure(extendedResultCode: 1, message: "no such column: t.price_amount")), 500, "INTERNAL_ERROR"),
        (.postgres(PostgresFailure(sqlstate: "57P01", message: "terminating connection due to administrator command")), 503, "SERVICE_UNAVAILABLE"),
        (
            .postgres(PostgresFailure(sqlstate: nil, message: "server closed the connection unexpectedly", connectionLost: true)), 503,
            "SERVICE_UNAVAILABLE"
        ),
        (.postgres(PostgresFailure(sqlstate: "40001", message: "could not serialize access")), 503, "SERVICE_UNAVAILABLE"),
        (.postgres(PostgresFailure(sqlstate: "23505", message: "duplicate key value violates unique constraint")), 500, "INTERNAL_ERROR"),
        (.postgres(PostgresFailure(sqlstate: "42703", message: "column t.price_amount does not exist")), 500, "INTERNAL_ERROR"),
        (.invariant("keyset position has 2 values, the order has 3 keys"), 500, "INTERNAL_ERROR"),
    ]

    @Test(arguments: cases)
    func eachStoreErrorHasItsStatusAndCode(error: StoreError, status: Int, code: String) {
        let answer = error.httpError
        #expect(answer.status == status)
        #expect(answer.code == code)
        for leak in [
            "locked", "malformed", "UNIQUE", "no such column", "keyset", "writer", "people refer", "administrator", "serialize", "duplicate key",
            "price_amount",
        ] {
            #expect(!answer.detail.contains(leak), "\(error) shows \(leak)")
        }
    }
}
