/// A request as a value: everything a handler may read, decoded once.
public struct Request: Sendable {
    public var method: HTTPMethod
    /// The raw request target as the client sent it (`/v1/products?limit=5`).
    public var target: String
    /// The raw path (still percent-encoded), segments decoded, query items decoded.
    public var path: String
    public var segments: [String]
    public var query: [QueryItem]
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// `X-Request-ID` from the client when it is well-formed, else one generated here.
    public var id: String
    /// "HTTP/1.1" or "HTTP/1.0".
    public var version: String
    /// Values of the route's `:parameter` segments, filled in by the router.
    public var parameters: RouteParameters
    /// The template of the route that matched (`/v1/:collection/:id`), for logs and metrics.
    public var routeTemplate: String?
    /// The matched route's index in its router (-1 when none matched): a cheap metrics key.
    public var routeIndex: Int
    /// Who sent it, when a stage authenticated it (`RequestStage`); nil for an anonymous request.
    public var principal: Principal?
    /// The socket's peer; nil for a request not read from a socket (tests).
    public var peerAddress: IPAddress?
    /// The client as far as the server can tell: the peer, or the address a trusted proxy named
    /// (`TrustedProxies`).
    public var clientAddress: IPAddress?
    /// Set by the rate limiter; every answer then carries the `RateLimit` fields.
    public var rateLimit: RateLimitStatus?
    /// `If-None-Match` named a tag of a gzip body (`"abc-gzip"`), rewritten to the handler's
    /// own tag before routing; a 304 then names the gzip tag again (`ResponseEncoding`).
    var conditionalNamedGzip = false

    public init(
        method: HTTPMethod, target: String, path: String? = nil, segments: [String] = [], query: [QueryItem] = [],
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], id: String = "test", version: String = "HTTP/1.1"
    ) {
        self.method = method
        self.target = target
        self.path = path ?? target
        self.segments = segments
        self.query = query
        self.headers = headers
        self.body = body
        self.id = id
        self.version = version
        self.parameters = RouteParameters()
        self.routeTemplate = nil
        self.routeIndex = -1
        self.principal = nil
    }

    /// The value of the first query item called `name`.
    public func query(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The value of route parameter `name` (`:id`).
    public func parameter(_ name: String) -> String? {
        parameters[name]
    }
}
