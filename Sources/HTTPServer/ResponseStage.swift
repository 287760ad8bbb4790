/// A step every answer passes just before it is queued, whatever produced it (a route, an
/// error, a stage's refusal): headers that belong to every response, in the order given.
public protocol ResponseStage: Sendable {
    func decorate(_ response: inout Response, for request: Request)
}

/// `X-Request-ID` on every answer: the client's own when it sent a good one.
struct RequestIDHeader: ResponseStage {
    func decorate(_ response: inout Response, for request: Request) {
        response.headers.add("X-Request-ID", request.id)
    }
}

/// gzip where the client accepts it (`ResponseEncoding`); the last stage that changes the body.
struct ContentCodingStage: ResponseStage {
    func decorate(_ response: inout Response, for request: Request) {
        ResponseEncoding.encode(&response, for: request)
    }
}

extension CORSPolicy: ResponseStage {
    public func decorate(_ response: inout Response, for request: Request) {
        decorate(&response, origin: request.headers["Origin"])
    }
}
