import HTTPServer
import Storage

/// Runs a store call and turns its failure into the HTTP error the client sees.
enum StoreFailure {
    static func wrap<T>(_ body: () throws(StoreError) -> T) throws(HTTPError) -> T {
        do {
            return try body()
        } catch {
            throw httpError(error)
        }
    }

    static func httpError(_ error: StoreError) -> HTTPError {
        switch error {
        case .notFound: .notFound("No item with this id.")
        case .versionMismatch: HTTPError(status: 412, code: "PRECONDITION_FAILED", detail: "The item changed since the ETag in If-Match was issued.")
        case .invalidReference(let field, let id):
            HTTPError(
                status: 422, code: "VALIDATION_FAILED", detail: "The request names an item that does not exist.",
                errors: [.init(pointer: field, detail: "No item with id \(id.rawValue).")])
        case .stillReferenced(let what): HTTPError(status: 409, code: "CONFLICT", detail: what)
        case .changesExpired:
            HTTPError(
                status: 410, code: "CHANGES_EXPIRED", detail: "The token is older than the retained change history; reload the list.",
                parameter: "since")
        case .unavailable: .serviceUnavailable("The database cannot answer right now.")
        }
    }
}
