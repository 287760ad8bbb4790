/// Cross-origin resource sharing for browser clients (the Fetch standard's CORS protocol).
public struct CORSPolicy: Sendable {
    public var allowedOrigins: [String]
    /// Response headers a browser script may read: validators, links, the rate limit's fields
    /// (so a page can slow down before a 429) and the mark of a replayed write.
    public static let exposedHeaders =
        "ETag, Link, Location, X-Request-ID, Content-Language, Retry-After, RateLimit, RateLimit-Policy, Idempotent-Replayed"
    /// Request headers a browser script may send.
    public static let allowedHeaders = "Accept, Accept-Language, Content-Type, If-Match, If-None-Match, X-Request-ID, Idempotency-Key"
    /// Those and `Authorization`, for an origin listed by name: an API key crosses origins only
    /// to pages the operator named, never under `*`.
    public static let allowedHeadersWithKeys = allowedHeaders + ", Authorization"
    public static let maxAge = "600"

    public var isEnabled: Bool { !allowedOrigins.isEmpty }

    /// The value for `Access-Control-Allow-Origin`, or nil when the origin is not allowed.
    public func allowOrigin(for origin: String?) -> String? {
        guard let origin, isEnabled else { return nil }
        if allowedOrigins.contains("*") { return "*" }
        return allowedOrigins.contains(origin) ? origin : nil
    }

    /// Adds the headers of an actual (non-preflight) response.
    public func decorate(_ response: inout Response, origin: String?) {
        guard isEnabled else { return }
        response.headers.add("Vary", "Origin")
        guard let allowed = allowOrigin(for: origin) else { return }
        response.headers.set("Access-Control-Allow-Origin", allowed)
        response.headers.set("Access-Control-Expose-Headers", Self.exposedHeaders)
    }

    /// The answer to `OPTIONS` on a known path: 204 with `Allow`, plus the preflight headers
    /// when the request is a CORS preflight from an allowed origin.
    public func preflight(allowed: [String], request: Request) -> Response {
        var response = Response.empty(status: 204)
        response.headers.set("Allow", allowed.joined(separator: ", "))
        let origin = request.headers["Origin"]
        if request.headers.contains("Access-Control-Request-Method"), let allowOrigin = allowOrigin(for: origin) {
            response.headers.set("Access-Control-Allow-Origin", allowOrigin)
            response.headers.set("Access-Control-Allow-Methods", allowed.joined(separator: ", "))
            let listed = origin.map { allowedOrigins.contains($0) } ?? false
            response.headers.set("Access-Control-Allow-Headers", listed ? Self.allowedHeadersWithKeys : Self.allowedHeaders)
            response.headers.set("Access-Control-Max-Age", Self.maxAge)
        }
        if isEnabled { response.headers.add("Vary", "Origin") }
        return response
    }
}
