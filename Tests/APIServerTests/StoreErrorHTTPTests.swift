import APIServer
import Domain
import HTTPServer
import Storage
import Testing

/// Every store failure's answer: what may pass is a 503, a bug or a damaged database a 500,
/// and no store message reaches the client.
@Suite("Store errors as HTTP answers")
struct StoreErrorHTTPTests {
    static let id = EntityID.generate(kind: .product)

    static let cases: [(StoreError, Int, String)] = [
        (.missing(collection: "products", id), 404, "NOT_FOUND"),
        (.versionMismatch(current: 3), 412, "PRECONDITION_FAILED"),
        (.invalidReference(field: "departmentID", id: id), 422, "VALIDATION_FAILED"),
        (.stillReferenced("people refer to it"), 409, "CONFLICT"),
        (.changesExpired(oldestRetained: 9), 410, "CHANGES_EXPIRED"),
        (.unavailable("the writer stopped"), 503, "SERVICE_UNAVAILABLE"),
        (.database(resultCode: 5, message: "database is locked"), 503, "SERVICE_UNAVAILABLE"),
        // SQLITE_BUSY_RECOVERY (5 | 1 << 8): the extended code of a busy database.
        (.database(resultCode: 261, message: "busy recovery"), 503, "SERVICE_UNAVAILABLE"),
        (.database(resultCode: 13, message: "database or disk is full"), 503, "SERVICE_UNAVAILABLE"),
        (.database(resultCode: 10, message: "disk I/O error"), 503, "SERVICE_UNAVAILABLE"),
        (.database(resultCode: 11, message: "database disk image is malformed"), 500, "INTERNAL_ERROR"),
        // SQLITE_CONSTRAINT_UNIQUE (19 | 8 << 8): a write the store should have prevented.
        (.database(resultCode: 2067, message: "UNIQUE constraint failed: products.id"), 500, "INTERNAL_ERROR"),
        (.database(resultCode: 1, message: "no such column: t.price_amount"), 500, "INTERNAL_ERROR"),
        (.invariant("keyset position has 2 values, the order has 3 keys"), 500, "INTERNAL_ERROR"),
    ]

    @Test(arguments: cases)
    func eachStoreErrorHasItsStatusAndCode(error: StoreError, status: Int, code: String) {
        let answer = error.httpError
        #expect(answer.status == status)
        #expect(answer.code == code)
        for leak in ["locked", "malformed", "UNIQUE", "no such column", "keyset", "writer", "people refer"] {
            #expect(!answer.detail.contains(leak), "\(error) shows \(leak)")
        }
    }
}
