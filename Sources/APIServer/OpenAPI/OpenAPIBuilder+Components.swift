/// The shared parameters, headers and responses, and every schema.
///
/// Page size has no shared parameter: each collection declares its own default and maximum.
extension OpenAPIBuilder {
    func components() -> YAMLNode {
        [
            "parameters": Self.sharedParameters,
            "headers": Self.headers,
            "responses": Self.responses,
            "schemas": .map(sharedSchemas() + collectionSchemas()),
            "securitySchemes": Self.securitySchemes,
        ]
    }

    /// Per collection: its detail, and for a writable one its create, merge-patch and batch bodies.
    private func collectionSchemas() -> [(String, YAMLNode)] {
        catalog.collections.flatMap { collection -> [(String, YAMLNode)] in
            var schemas = [(Self.detailSchemaName(collection), detailSchema(collection))]
            if collection.writable {
                schemas.append((Self.inputSchemaName(collection), inputSchema(collection)))
                schemas.append((Self.patchSchemaName(collection), patchSchema(collection)))
                schemas += batchSchemas(collection)
            }
            return schemas
        }
    }

    // Computed, not stored: a stored indirect enum is a false leak for LeakSanitizer (the fuzzers).
    static var sharedParameters: YAMLNode {
        [
            "Cursor": parameter(
                "cursor",
                "From a page's links: its `next` (the page after it) or the cursor of its `links.prev` (the page before it); opaque, signed, bound to the query it came from.",
                schema: ["type": "string", "minLength": 1, "maxLength": 2048]),
            "Search": parameter(
                "q", "Case- and diacritic-insensitive substring search over what the rows show.", schema: ["type": "string", "maxLength": 200]),
            "AcceptLanguage": parameter(
                "Accept-Language", in: "header", "Formatting locale: " + locales.joined(separator: ", ") + " (fallback en-US).",
                schema: ["type": "string"]),
            "IfNoneMatch": parameter(
                "If-None-Match", in: "header", "An ETag from an earlier answer: 304 when it is still current.", schema: ["type": "string"]),
            "IfMatch": parameter(
                "If-Match", in: "header", "The detail's ETag: the write happens only if the item is still at that version (else 412).",
                schema: ["type": "string"]),
            "IdempotencyKey": parameter(
                "Idempotency-Key", in: "header",
                "A key of the client's choosing (a UUID): a retry with the same key, method, path and body gets the first answer "
                    + "again (Idempotent-Replayed: true) instead of writing twice; with another request, 422 IDEMPOTENCY_KEY_REUSED; "
                    + "while the first still runs, 409 IDEMPOTENCY_KEY_IN_USE. Kept 24 hours per API key; only writes that succeeded.",
                schema: ["type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]+$"]),
        ]
    }

    // Computed, not stored: a stored indirect enum is a false leak for LeakSanitizer (the fuzzers).
    static var headers: YAMLNode {
        [
            "ETag": [
                "description": "A strong validator of this representation; a gzip body's ends in `-gzip` inside the quotes.",
                "schema": ["type": "string"],
            ],
            "Link": [
                "description": "`<url>; rel=\"next\"` when there is a next page, then `rel=\"prev\"` and `rel=\"first\"` on a page after the first.",
                "schema": ["type": "string"],
            ],
            "Location": ["description": "The new item's detail URL.", "schema": ["type": "string"]],
            "ContentLanguage": [
                "description": "The locale the values are formatted in.", "schema": ["type": "string", "enum": .strings(locales)],
            ],
            "Vary": [
                "description": "Accept-Language; Accept-Encoding on bodies of 1 KiB or more and on 304s; Origin when CORS is on.",
                "schema": ["type": "string"],
            ],
            "CacheControl": ["description": "no-cache: clients revalidate with If-None-Match.", "schema": ["type": "string"]],
            "IdempotentReplayed": [
                "description": "`true` on an answer sent again for a retried Idempotency-Key (absent on the first).",
                "schema": ["type": "string", "enum": ["true"]],
            ],
            "XRequestID": [
                "description": "The request's id: the client's X-Request-ID when well-formed, else generated.", "schema": ["type": "string"],
            ],
        ]
    }

    static let problemDescriptions: [(Int, String)] = [
        (
            400,
            "Bad request: the code names what (INVALID_LIMIT, INVALID_CURSOR, INVALID_SORT, UNKNOWN_PARAMETER,"
                + " DUPLICATE_PARAMETER, INVALID_VIEW, INVALID_GROUP, INVALID_FILTER, INVALID_SEARCH, INVALID_TOKEN,"
                + " MALFORMED_JSON, INVALID_UTF8, JSON_TOO_DEEP, DUPLICATE_KEY, INVALID_PATH, INVALID_QUERY, KEY_IN_QUERY,"
                + " DUPLICATE_HEADER, INVALID_IDEMPOTENCY_KEY)."
        ),
        (
            401,
            "No API key where one is needed (KEY_REQUIRED), or one that is unknown, malformed or revoked (INVALID_KEY, on any route); "
                + "WWW-Authenticate says which."
        ),
        (403, "The API key's scopes do not cover this collection and access (KEY_SCOPE); WWW-Authenticate names the scope needed."),
        (404, "No such item or path (NOT_FOUND)."),
        (
            409,
            "The item is still referenced, or kept changing during a patch (CONFLICT); a request with this Idempotency-Key is still "
                + "running (IDEMPOTENCY_KEY_IN_USE)."
        ),
        (410, "The change token is older than the retained history (CHANGES_EXPIRED)."),
        (412, "If-Match named another version (PRECONDITION_FAILED)."),
        (413, "The body is larger than the limit (PAYLOAD_TOO_LARGE)."),
        (415, "The body is not JSON (UNSUPPORTED_MEDIA_TYPE)."),
        (
            422,
            "Validation failed (VALIDATION_FAILED): one entry in `errors` per field, by JSON pointer; or the Idempotency-Key was used "
                + "with another request (IDEMPOTENCY_KEY_REUSED)."
        ),
        (
            429,
            "Too many requests from this API key, or without one from this client address (RATE_LIMITED); Retry-After says "
                + "when to try again. Every answer carries the RateLimit-Policy and RateLimit fields while rate limits are on."
        ),
        (
            503,
            "The database cannot answer now (it is unreachable, busy or restarting), or the server is shutting down "
                + "(SERVICE_UNAVAILABLE); Retry-After says when to try again. A write answered 503 may not have been applied: "
                + "retry it (with its Idempotency-Key)."
        ),
    ]

    /// The fields of a 429 (draft-ietf-httpapi-ratelimit-headers for the last two).
    static var rateLimitHeaders: YAMLNode {
        [
            "Retry-After": ["description": "Seconds until a request may succeed again.", "schema": ["type": "integer", "minimum": 1]],
            "RateLimit-Policy": [
                "description": "The policy that applies: `\"address\";q=100;w=1` (q requests per w seconds; `address` or `key`).",
                "schema": ["type": "string"],
            ],
            "RateLimit": [
                "description": "What is left of it: `\"address\";r=0;t=1` (r requests remaining, t seconds until the quota is whole again).",
                "schema": ["type": "string"],
            ],
        ]
    }

    static var responses: YAMLNode {
        let problemBody: YAMLNode = ["application/problem+json": ["schema": ref("Problem")]]
        return .map(
            [
                (
                    "NotModified",
                    answer("The representation is unchanged (If-None-Match named the current ETag).", headers: ["ETag", "X-Request-ID"])
                ),
                ("Problem", ["description": "An error.", "content": problemBody]),
            ]
                + problemDescriptions.map { status, description in
                    var response: YAMLNode = ["description": .string(description), "content": problemBody]
                    if status == 401 || status == 403 {
                        response = response.setting(
                            "headers",
                            to: [
                                "WWW-Authenticate": [
                                    "description": "`Bearer realm=\"rowserver\"`, with `error` and `scope` (RFC 6750).", "schema": ["type": "string"],
                                ]
                            ])
                    }
                    if status == 429 {
                        response = response.setting("headers", to: rateLimitHeaders)
                    }
                    if status == 503 {
                        response = response.setting(
                            "headers",
                            to: [
                                "Retry-After": [
                                    "description": "Seconds until a request may succeed again.", "schema": ["type": "integer", "minimum": 1],
                                ]
                            ])
                    }
                    return ("Problem\(status)", response)
                })
    }
}
