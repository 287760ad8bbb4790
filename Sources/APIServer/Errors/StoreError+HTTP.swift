import Domain
import HTTPServer
import Storage

/// The one place a store failure becomes what the client sees.
///
/// | StoreError | status | code |
/// |---|---|---|
/// | `notFound` | 404 | `NOT_FOUND` |
/// | `versionMismatch` | 412 | `PRECONDITION_FAILED` |
/// | `invalidReference(field:id:)` | 422 | `VALIDATION_FAILED`, one error on `/<field>` |
/// | `stillReferenced` | 409 | `CONFLICT` |
/// | `changesExpired` | 410 | `CHANGES_EXPIRED` (parameter `since`) |
/// | `unavailable`; `sqlite` with a transient result code (busy, locked, full, I/O); `postgres` with a transient SQLSTATE (connection lost, shutdown, serialization failure) | 503 | `SERVICE_UNAVAILABLE` |
/// | `sqlite` and `postgres` with any other code, `incompatibleDefinition`, `invariant` | 500 | `INTERNAL_ERROR` |
///
/// Details are fixed sentences: a store's messages may name tables, SQL or file paths, which
/// are for logs only (the server logs the error itself for a 5xx). Handlers throw store errors
/// as they come: the server renders every `HTTPResponseError` in one place.
extension StoreError: HTTPResponseError {
    public var httpError: HTTPError {
        switch self {
        case .missing(let collection, let id):
            return .notFound("No item in \(collection) has the id \(id.rawValue).")
        case .versionMismatch:
            return HTTPError(
                status: 412, code: "PRECONDITION_FAILED",
                detail: "The item changed since the ETag in If-Match was issued; nothing was written. GET it again.",
                parameter: "If-Match")
        case .invalidReference(let field, let id):
            let pointer = field.hasPrefix("/") ? field : "/" + field
            return HTTPError(
                status: 422, code: "VALIDATION_FAILED", detail: "The request names an item that does not exist.",
                errors: [.init(pointer: pointer, detail: "No item of the collection this field refers to has the id \(id.rawValue).")])
        case .stillReferenced:
            return HTTPError(
                status: 409, code: "CONFLICT",
                detail: "Other items still refer to this one; move or delete them first.")
        case .changesExpired:
            return HTTPError(
                status: 410, code: "CHANGES_EXPIRED",
                detail: "The token is older than the retained change history; reload the list.", parameter: "since")
        case .unavailable, .sqlite, .postgres, .incompatibleDefinition, .invariant:
            return isTransient ? .serviceUnavailable("The database cannot answer right now.") : .internalError()
        }
    }
}
