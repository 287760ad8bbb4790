/// The routes every server has whatever its collections: health, metrics, this document, the
/// explorer and the index.
extension OpenAPIBuilder {
    func operationalPaths() -> [(String, YAMLNode)] {
        let problem = Self.ref("Problem", "responses")
        let notModified = Self.ref("NotModified", "responses")
        let text: YAMLNode = ["schema": ["type": "string"]]
        /// An answer with the request id (and `ETag`, for the explorer's files) and a body of each of `types`.
        func answer(_ description: String, _ types: [(String, YAMLNode)], etag: Bool = false) -> YAMLNode {
            Self.answer(description, headers: etag ? ["ETag", "X-Request-ID"] : ["X-Request-ID"]).setting("content", to: .map(types))
        }
        let health: YAMLNode = [
            "get": [
                "tags": ["operations"], "operationId": "getHealth", "summary": "Whether the server and its database answer.",
                "responses": [
                    "200": answer("Every check passed.", [("application/json", ["schema": Self.ref("Health")])]),
                    "503": answer("A check failed.", [("application/json", ["schema": Self.ref("Health")])]),
                    "default": problem,
                ],
            ]
        ]
        let metrics: YAMLNode = [
            "get": [
                "tags": ["operations"], "operationId": "getMetrics",
                "summary": "Prometheus text: request counts and durations by method, route template and status class.",
                "description":
                    "Also `rowserver_response_cache_lookups_total` by `cache` (`lists`, `details`) and `result` (`hit`, `miss`); with the access log on, `rowserver_access_log_write_failures`: its failed writes since start.",
                "responses": ["200": answer("The metrics.", [("text/plain", text)]), "default": problem],
            ]
        ]
        let openAPI: YAMLNode = [
            "get": [
                "tags": ["operations"], "operationId": "getOpenAPI",
                "summary": "This document, generated from the collection definitions the server started with.",
                "responses": ["200": answer("The spec.", [("application/yaml", text)]), "default": problem],
            ]
        ]
        let explorer: YAMLNode = [
            "get": [
                "tags": ["operations"], "operationId": "getExplorer", "summary": "The explorer: a browser client of this API.",
                "responses": [
                    "200": answer("The explorer's page (strict Content-Security-Policy).", [("text/html", text)], etag: true),
                    "304": notModified, "default": problem,
                ],
            ]
        ]
        let asset: YAMLNode = [
            "get": [
                "tags": ["operations"], "operationId": "getExplorerAsset", "summary": "A script or style sheet of the explorer.",
                "parameters": [
                    [
                        "name": "asset", "in": "path", "required": true, "description": "The file name.",
                        "schema": ["type": "string", "pattern": "^[a-z]+[.](js|css)$"],
                    ]
                ],
                "responses": Self.responseMap(
                    [("200", answer("The asset.", [("text/javascript", text), ("text/css", text)], etag: true)), ("304", notModified)],
                    problems: [404]),
            ]
        ]
        let client: YAMLNode = [
            "get": [
                "tags": ["operations"], "operationId": "getClientModule",
                "summary":
                    "The browser client of lists (an ES module, no build step: a list kept current by its stream) and its TypeScript declarations.",
                "parameters": [
                    [
                        "name": "file", "in": "path", "required": true, "description": "rowserver.js or rowserver.d.ts.",
                        "schema": ["type": "string", "pattern": "^rowserver[.](js|d[.]ts)$"],
                    ]
                ],
                "responses": Self.responseMap(
                    [
                        ("200", answer("The module.", [("text/javascript", text), ("application/typescript", text)], etag: true)),
                        ("304", notModified),
                    ],
                    problems: [404]),
            ]
        ]
        return [
            ("/health", health), ("/metrics", metrics), ("/openapi.yaml", openAPI), ("/", explorer), ("/explorer/{asset}", asset),
            ("/client/{file}", client), ("/v1", index()),
        ]
    }

    /// The index answers in the request's language: collection titles and filter descriptions
    /// are localized.
    private func index() -> YAMLNode {
        [
            "get": [
                "tags": ["lists"], "operationId": "getIndex",
                "summary": "Every collection: title, links, sortable fields, default sort, filters, sections and table.",
                "parameters": [Self.ref("AcceptLanguage", "parameters"), Self.ref("IfNoneMatch", "parameters")],
                "responses": [
                    "200": Self.answer("The index.", headers: ["ETag", "Content-Language", "Vary", "X-Request-ID"], json: Self.ref("Index")),
                    "304": Self.ref("NotModified", "responses"), "default": Self.ref("Problem", "responses"),
                ],
            ]
        ]
    }
}
