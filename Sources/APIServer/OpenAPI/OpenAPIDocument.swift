import Domain

/// The OpenAPI 3.1 document of a catalog: every route rowserver serves for those collections,
/// with their parameters, bodies and answers, derived from the definitions alone.
///
/// Built once at start-up and served at `GET /openapi.yaml`; the top-level `openapi.yaml` is
/// this document for the demo definition. The same catalog always gives the same bytes.
public enum OpenAPIDocument {
    public static func yaml(for catalog: Catalog, version: String) -> String {
        tree(for: catalog, version: version).yaml
    }

    /// The document as a tree, for tests that look inside it.
    static func tree(for catalog: Catalog, version: String) -> YAMLNode {
        let builder = OpenAPIBuilder(catalog: catalog)
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "rowserver",
                "version": .string(version),
                "summary": "Render rows for list screens, served by ID.",
                "description": .string(
                    "List endpoints return render rows (a stable id, a title, an optional subtitle, a preformatted "
                        + "trailing value, an image hint and the link to the detail), sections and sortable tables; detail "
                        + "endpoints are addressed by ID. Clients follow links and never build URLs. Every error is "
                        + "application/problem+json (RFC 9457) with a stable `code`. Every GET also answers HEAD; every "
                        + "path answers OPTIONS. A 200 JSON, YAML or text body of 1 KiB or more is sent gzip-encoded "
                        + "(`Content-Encoding: gzip`) when `Accept-Encoding` allows it, under its own ETag (the identity "
                        + "tag with `-gzip` inside the quotes); either tag revalidates."),
            ],
            "servers": [["url": "http://127.0.0.1:8080"]],
            "tags": [["name": "operations"], ["name": "lists"], ["name": "items"]],
            "paths": builder.paths(),
            "components": builder.components(),
        ]
    }
}
