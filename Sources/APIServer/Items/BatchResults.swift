import HTTPServer

/// The answer of `POST …/batch`: `{"atomic": bool, "results": [...]}`, one result per
/// operation in order. A written operation's result holds what its single route answers — its
/// status, `etag`, `location` (creates) and the detail as `item` (byte for byte the same body);
/// a delete has its status alone; a refused one its status and the problem (RFC 9457) the single
/// route would have answered.
struct BatchResults {
    enum Answer {
        /// The single route's answer.
        case answered(Response)
        case failed(HTTPError)

        var succeeded: Bool {
            if case .answered = self { true } else { false }
        }
    }

    var atomic: Bool
    var results: [Answer]

    var response: Response {
        var json = JSONWriter(capacity: 512 * max(1, results.count))
        json.beginObject()
        json.field("atomic", atomic)
        json.key("results")
        json.beginArray()
        for result in results {
            json.beginObject()
            switch result {
            case .answered(let response):
                json.field("status", response.status)
                if let tag = response.headers["ETag"] { json.field("etag", tag) }
                if let location = response.headers["Location"] { json.field("location", location) }
                if !response.body.isEmpty {
                    json.key("item")
                    json.raw(response.body)
                }
            case .failed(let error):
                json.field("status", error.status)
                json.key("problem")
                json.raw(ProblemDetails.body(for: error))
            }
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return .json(json.bytes)
    }

    /// What a failure of an atomic batch answers: the failing operation's own status and code,
    /// its fields' pointers under the operation (`/operations/3/item/name`), or the operation's
    /// pointer when the failure names no field. A 5xx stays as it is: no operation is to blame.
    static func atomicFailure(_ error: HTTPError, at index: Int, of operation: BatchRequest.Operation) -> HTTPError {
        guard error.status < 500 else { return error }
        var failure = error
        let pointer = "/operations/\(index)"
        if failure.errors.isEmpty {
            failure.errors = [.init(pointer: pointer, detail: error.detail)]
        } else {
            let base = operation.documentMember.map { pointer + "/" + $0 } ?? pointer
            failure.errors = error.errors.map { .init(pointer: base + $0.pointer, detail: $0.detail) }
        }
        // The precondition is the operation's `ifMatch`, not a header of the batch.
        failure.parameter = nil
        failure.detail = "Operation \(index) (\(operation.kind.rawValue)) failed, so the atomic batch wrote nothing: \(error.detail)"
        return failure
    }

    /// Any error a handler meets, as the problem it is answered with.
    static func problem(_ error: any Error) -> HTTPError {
        (error as? any HTTPResponseError)?.httpError ?? .internalError()
    }
}
