import Domain
import HTTPServer

/// The body of `POST …/batch`: `{"atomic": bool, "operations": [{"op": "create", "item": {…}} |
/// {"op": "patch", "id", "patch": {…}, "ifMatch"?} | {"op": "delete", "id", "ifMatch"?}]}`.
///
/// Only the envelope is read here (400 for its mistakes, each by JSON pointer); an operation's
/// item and patch are checked by the very code a single write runs (`CatalogItemsController`).
struct BatchRequest: Sendable {
    enum Kind: String, Sendable, CaseIterable {
        case create, patch, delete
    }

    struct Operation: Sendable {
        var kind: Kind
        /// The item's id as sent (patch, delete): one that is no id of the collection is a 404 of
        /// that operation, as on the single routes.
        var id: String?
        /// A create's item, a patch's merge patch.
        var document: JSONValue?
        /// `ifMatch`, read as an `If-Match` header is.
        var precondition: EntityTag.Precondition?

        /// The member that holds the document, for the pointers of its field errors.
        var documentMember: String? {
            switch kind {
            case .create: "item"
            case .patch: "patch"
            case .delete: nil
            }
        }
    }

    var atomic: Bool
    var operations: [Operation]

    /// The most operations a batch holds: a batch is answered in one response and, when atomic,
    /// committed in one transaction that other writers wait for.
    static let maximumOperations = 100

    static func parse(_ request: Request) throws(HTTPError) -> BatchRequest {
        try parse(RequestBody.parse(request, accepting: RequestBody.json))
    }

    static func parse(_ document: JSONValue) throws(HTTPError) -> BatchRequest {
        guard case .object(let members) = document else { throw invalid([.init(pointer: "", detail: "A batch is a JSON object.")]) }
        var errors: [HTTPError.FieldError] = []
        var atomic = false
        var list: [JSONValue]?
        for member in members {
            switch (member.key, member.value) {
            case ("atomic", .bool(let value)): atomic = value
            case ("atomic", let value): errors.append(.init(pointer: "/atomic", detail: "Must be true or false, not \(value.typeName)."))
            case ("operations", .array(let values)): list = values
            case ("operations", let value): errors.append(.init(pointer: "/operations", detail: "Must be an array, not \(value.typeName)."))
            default:
                errors.append(.init(pointer: JSONPointer.appending("", member.key), detail: "Unknown member; a batch has atomic and operations."))
            }
        }
        if !errors.isEmpty { throw invalid(errors) }
        guard let list else { throw invalid([.init(pointer: "/operations", detail: "Required: the operations to apply, in order.")]) }
        guard !list.isEmpty else {
            throw HTTPError(
                status: 400, code: "EMPTY_BATCH", detail: "The batch has no operations; send 1 to \(maximumOperations).",
                errors: [.init(pointer: "/operations", detail: "Empty.")])
        }
        guard list.count <= maximumOperations else {
            throw HTTPError(
                status: 400, code: "TOO_MANY_OPERATIONS",
                detail: "A batch holds at most \(maximumOperations) operations; this one has \(list.count). Send it in parts.",
                errors: [.init(pointer: "/operations", detail: "\(list.count) operations.")])
        }
        var operations: [Operation] = []
        for (index, value) in list.enumerated() {
            if let operation = try operation(value, at: "/operations/\(index)", errors: &errors) { operations.append(operation) }
        }
        if !errors.isEmpty { throw invalid(errors) }
        try checkDistinctIDs(operations)
        return BatchRequest(atomic: atomic, operations: operations)
    }

    /// One operation; nil (with its mistakes in `errors`) when its envelope is wrong. An `op`
    /// that is none of the three is thrown at once: a client that sends one may mean a write
    /// this server does not make.
    private static func operation(_ value: JSONValue, at pointer: String, errors: inout [HTTPError.FieldError]) throws(HTTPError) -> Operation? {
        guard case .object(let members) = value else {
            errors.append(.init(pointer: pointer, detail: "An operation is an object, not \(value.typeName)."))
            return nil
        }
        guard case .string(let name)? = value["op"] else {
            errors.append(.init(pointer: pointer + "/op", detail: "Required: create, patch or delete."))
            return nil
        }
        guard let kind = Kind(rawValue: name) else {
            throw HTTPError(
                status: 400, code: "UNKNOWN_OPERATION", detail: "\"\(name)\" is no operation; use create, patch or delete.",
                errors: [.init(pointer: pointer + "/op", detail: "Unknown operation.")])
        }
        let allowed: Set<String> =
            switch kind {
            case .create: ["op", "item"]
            case .patch: ["op", "id", "patch", "ifMatch"]
            case .delete: ["op", "id", "ifMatch"]
            }
        let before = errors.count
        for member in members where !allowed.contains(member.key) {
            errors.append(.init(pointer: JSONPointer.appending(pointer, member.key), detail: "Unknown member of a \(name) operation."))
        }
        var operation = Operation(kind: kind)
        if kind != .create {
            if case .string(let id)? = value["id"] {
                operation.id = id
            } else {
                errors.append(.init(pointer: pointer + "/id", detail: "Required: a string."))
            }
            switch value["ifMatch"] {
            case nil: break
            case .string(let tag)?: operation.precondition = EntityTag.parseIfMatch(tag)
            case let other?: errors.append(.init(pointer: pointer + "/ifMatch", detail: "Must be an ETag string, not \(other.typeName)."))
            }
        }
        if let member = operation.documentMember {
            operation.document = value[member]
            if operation.document == nil { errors.append(.init(pointer: pointer + "/" + member, detail: "Required.")) }
        }
        return errors.count == before ? operation : nil
    }

    /// Two operations on one item would each be checked against the item as it was before the
    /// batch: refused, so that no operation is checked against a state it does not write on.
    private static func checkDistinctIDs(_ operations: [Operation]) throws(HTTPError) {
        var seen: [String: Int] = [:]
        for (index, operation) in operations.enumerated() {
            guard let id = operation.id else { continue }
            if let first = seen[id] {
                throw HTTPError(
                    status: 400, code: "DUPLICATE_ID", detail: "Operations \(first) and \(index) name the same item; send one operation per item.",
                    errors: [.init(pointer: "/operations/\(index)/id", detail: "Also named by operation \(first).")])
            }
            seen[id] = index
        }
    }

    private static func invalid(_ errors: [HTTPError.FieldError]) -> HTTPError {
        HTTPError(
            status: 400, code: "INVALID_BATCH", detail: "The batch is not well formed; each entry of errors names a member and why.", errors: errors)
    }
}
