/// An error that knows what the client sees: a status, a stable code and a fixed detail.
/// Handlers throw any such error and the server renders it in one place (`ServerCore.run`),
/// so a layer's errors (the store's) map to HTTP once, where that layer meets this one.
///
/// `httpError.detail` is shown to clients: it must never carry a message meant for logs (SQL,
/// file paths); the thrown value's own description is what the server logs for a 5xx.
public protocol HTTPResponseError: Error {
    var httpError: HTTPError { get }
}

extension HTTPError: HTTPResponseError {
    public var httpError: HTTPError { self }
}
