/// An error that carries its HTTP status: handlers throw it, the server renders it as
/// `application/problem+json` (RFC 9457).
public struct HTTPError: Error, Sendable, Equatable {
    /// One failing field of a request body (422), addressed by a JSON pointer (RFC 6901).
    public struct FieldError: Sendable, Equatable {
        public var pointer: String
        public var detail: String

        public init(pointer: String, detail: String) {
            self.pointer = pointer
            self.detail = detail
        }
    }

    public var status: Int
    /// A stable machine-readable code in UPPER_SNAKE_CASE (`INVALID_LIMIT`).
    public var code: String
    public var detail: String
    /// The query parameter or header at fault, when there is one.
    public var parameter: String?
    public var errors: [FieldError]
    /// Extra headers for the error response (`Allow` on 405).
    public var headers: HTTPHeaders
    /// Close the connection after answering: the request's framing cannot be trusted.
    public var closesConnection: Bool

    public init(
        status: Int, code: String, detail: String, parameter: String? = nil, errors: [FieldError] = [],
        headers: HTTPHeaders = HTTPHeaders(), closesConnection: Bool = false
    ) {
        self.status = status
        self.code = code
        self.detail = detail
        self.parameter = parameter
        self.errors = errors
        self.headers = headers
        self.closesConnection = closesConnection
    }

    public var title: String { HTTPStatus.reason(status) }
}

extension HTTPError {
    public static func badRequest(_ code: String, _ detail: String, parameter: String? = nil) -> HTTPError {
        HTTPError(status: 400, code: code, detail: detail, parameter: parameter)
    }

    public static func notFound(_ detail: String = "No resource lives at this path.") -> HTTPError {
        HTTPError(status: 404, code: "NOT_FOUND", detail: detail)
    }

    public static func methodNotAllowed(_ method: String, allowed: [String]) -> HTTPError {
        HTTPError(
            status: 405, code: "METHOD_NOT_ALLOWED", detail: "\(method) is not allowed here; use \(allowed.joined(separator: ", ")).",
            headers: HTTPHeaders([("Allow", allowed.joined(separator: ", "))]))
    }

    public static func payloadTooLarge(limit: Int) -> HTTPError {
        HTTPError(
            status: 413, code: "PAYLOAD_TOO_LARGE", detail: "The request body exceeds the limit of \(limit) \(limit == 1 ? "byte" : "bytes").",
            closesConnection: true)
    }

    public static func badFraming(_ detail: String) -> HTTPError {
        HTTPError(status: 400, code: "BAD_REQUEST_FRAMING", detail: detail, closesConnection: true)
    }

    /// 503 with `Retry-After: 1`: what is unavailable (the database, a server shutting down) is
    /// expected back soon, and a client may retry then (or elsewhere, behind a balancer).
    public static func serviceUnavailable(_ detail: String) -> HTTPError {
        HTTPError(status: 503, code: "SERVICE_UNAVAILABLE", detail: detail, headers: HTTPHeaders([("Retry-After", "1")]))
    }

    public static func internalError(_ detail: String = "The server failed to answer this request.") -> HTTPError {
        HTTPError(status: 500, code: "INTERNAL_ERROR", detail: detail)
    }
}
