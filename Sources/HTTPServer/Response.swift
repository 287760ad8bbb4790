/// A response as a value: status, headers and body bytes.
public struct Response: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Set on a response that is kept and sent again (a cached page): its gzip body is made once
    /// and kept here (`ResponseEncoding`).
    public var encodedBodies: EncodedBodies?
    /// A body written while it is sent (`body` is then empty): server-sent events.
    public var stream: ResponseStream?

    public init(status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response from already encoded bytes.
    public static func json(_ body: [UInt8], status: Int = 200) -> Response {
        Response(status: status, headers: HTTPHeaders([("Content-Type", "application/json")]), body: body)
    }

    /// A response without a body (204, 304).
    public static func empty(status: Int) -> Response {
        Response(status: status)
    }

    /// A `text/event-stream` response whose events `stream` carries as they are sent.
    public static func eventStream(_ stream: ResponseStream, headers: HTTPHeaders = HTTPHeaders()) -> Response {
        var response = Response(status: 200, headers: headers)
        response.headers.set("Content-Type", "text/event-stream; charset=utf-8")
        response.headers.set("Cache-Control", "no-store")
        // nginx passes each event on as it comes rather than buffering the response.
        response.headers.set("X-Accel-Buffering", "no")
        response.stream = stream
        return response
    }
}
