/// API keys in the document: the bearer scheme, and per operation whether a key is required
/// (writes, reads of a collection that says `read: key`) or optional (public reads: a bad key
/// is still 401), with the answers a key brings.
extension OpenAPIBuilder {
    static let keyScheme = "apiKey"

    // Computed, not stored: a stored indirect enum is a false leak for LeakSanitizer (the fuzzers).
    static var securitySchemes: YAMLNode {
        [
            keyScheme: [
                "type": "http", "scheme": "bearer", "bearerFormat": "rsk_<id>_<secret>",
                "description": .string(
                    "An API key from `rowserver keys create`: `Authorization: Bearer <key>`. Scopes: read, write (write also reads), "
                        + "read:<collection>, write:<collection>. Every write needs a write scope; reads need a read scope only where "
                        + "the collection says `read: key`. Never in the URL: key, token, access_token, api_key… in the query are 400 KEY_IN_QUERY."),
            ]
        ]
    }

    static let methods: Set<String> = ["get", "put", "post", "patch", "delete", "head", "options"]

    /// Every operation of a path item with its security: `required(method)` says whether it needs a key.
    static func secured(_ pathItem: YAMLNode, required: (String) -> Bool) -> YAMLNode {
        .map(pathItem.entries.map { key, value in methods.contains(key) ? (key, secured(value, required: required(key))) : (key, value) })
    }

    /// An operation with `security` and its 401 (and 403 where a key is required), the 429 of
    /// the rate limiter (which runs for every request but a preflight) and the 503 of a database
    /// that cannot answer or a server shutting down, in status order.
    static func secured(_ operation: YAMLNode, required: Bool) -> YAMLNode {
        let security: YAMLNode = required ? .list([[keyScheme: .list([])]]) : .list([.map([]), [keyScheme: .list([])]])
        var responses = operation["responses"]?.entries ?? []
        for (status, response) in problems(required ? [401, 403, 429, 503] : [401, 429, 503]) where !responses.contains(where: { $0.0 == status }) {
            let index = responses.firstIndex { $0.0 == "default" || ($0.0.count == 3 && $0.0 > status) } ?? responses.endIndex
            responses.insert((status, response), at: index)
        }
        return operation.setting("security", to: security).setting("responses", to: .map(responses))
    }
}
