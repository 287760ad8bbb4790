import Domain
import HTTPServer
import Storage

/// The one place a store failure becomes what the client sees: a transient failure
/// (`StoreError.isTransient`) is a 503, any other failure of the database a 500.
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
        case .treeCycle(let field):
            return HTTPError(
                status: 422, code: "TREE_CYCLE", detail: "The new parent is the item itself or one of its descendants; nothing was written.",
                errors: [
                    .init(pointer: field, detail: "An item cannot be its own ancestor: choose a parent outside its subtree, or null for a root.")
                ])
        case .treeTooDeep(let field, let depth):
            return HTTPError(
                status: 422, code: "TREE_TOO_DEEP", detail: "The new parent has more than \(depth) ancestors; nothing was written.",
                errors: [.init(pointer: field, detail: "Choose a parent at most \(depth) levels deep.")])
        case .stillReferenced:
            return HTTPError(
                status: 409, code: "CONFLICT",
                detail: "Other items still refer to this one; move or delete them first.")
        case .changesExpired:
            return HTTPError(
                status: 410, code: "CHANGES_EXPIRED",
                detail: "The token is older than the retained change history; reload the list.", parameter: "since")
        case .inGroup(_, let failure):
            // The batch route names the operation (`CatalogItemsController+Batch`).
            return failure.httpError
        case .unavailable, .sqlite, .postgres, .incompatibleDefinition, .invariant:
            return isTransient ? .serviceUnavailable("The database cannot answer right now.") : .internalError()
        }
    }
}
