import Domain

/// A collection's list (rows, sections or a table) and its change feed.
extension OpenAPIBuilder {
    /// `level`: one level of an outline (`Roots`, `Children`), which names the operation apart and
    /// `about` describes.
    func listOperation(_ collection: CollectionDefinition, pathParameters: [YAMLNode], level: String = "", about: String? = nil) -> YAMLNode {
        var pages = [Self.ref("RowPage")]
        if collection.sections != nil { pages.append(Self.ref("SectionPage")) }
        if collection.table != nil { pages.append(Self.ref("TablePage")) }
        let body: YAMLNode = pages.count == 1 ? pages[0] : ["oneOf": .list(pages)]
        let summary =
            "A page of \(collection.name): rows" + (collection.sections != nil ? ", sections" : "")
            + (collection.table != nil ? " or a table" : "") + "."
        var operation: [(String, YAMLNode)] = [
            ("tags", ["lists"]),
            ("operationId", .string("list\(Self.typeName(collection))\(level)")),
            ("summary", .string(level.isEmpty ? summary : "A page of one level of the outline \(collection.name): its \(level.lowercased()).")),
        ]
        if let about { operation.append(("description", .string(about.trimmingCharacters(in: .whitespaces)))) }
        operation += [
            ("parameters", .list(pathParameters + listParameters(collection))),
            (
                "responses",
                Self.responseMap(
                    [
                        (
                            "200",
                            Self.answer(
                                "A page. `next` is null on the last page.",
                                headers: ["ETag", "Link", "Content-Language", "Vary", "Cache-Control", "X-Request-ID"], json: body)
                        ),
                        ("304", Self.ref("NotModified", "responses")),
                    ], problems: [400, 404])
            ),
        ]
        return .map(operation)
    }

    func changesOperation(_ collection: CollectionDefinition, pathParameters: [YAMLNode] = [], level: String = "") -> YAMLNode {
        let under = level.isEmpty ? (pathParameters.isEmpty ? "" : " under one parent item") : " (its \(level.lowercased()))"
        return [
            "tags": ["lists"],
            "operationId": .string("changes\(Self.typeName(collection))\(level)"),
            "summary": .string("Changes to one list of \(collection.name)\(under) after a token, in commit order."),
            "description": .string(
                "The list is named by the same parameters as a page (sort, filters, search, sections, view; none: the default list), "
                    + "as the page's `links.changes` gives them. An upsert says where the row now stands in that list: `after` is the id "
                    + "of the row just before it (null: first). An item no longer in the list (deleted, or a filter or the search no "
                    + "longer holds) is a `delete`. Without `since`: no changes and a token for \"from now\". Replaying a token is safe; "
                    + "a token older than the retained history is 410, so the client reloads the list.\n\n"
                    + "With `Accept: text/event-stream` the same changes are pushed as server-sent events as they commit. The stream "
                    + "opens with `retry` (1 to 4 s, spread so that reconnecting clients do not all come at once) and, without a token, "
                    + "an `id` holding the token of now. Each event `changes` carries what one read of the feed answers (`changes`, a "
                    + "counted list's `total` and `sections`, and `referencesVersion`, which also comes alone, with no changes, when an "
                    + "item the rows show through a reference changed), its `id` the token after it: reconnecting with `Last-Event-ID` (as "
                    + "`EventSource` does) resumes exactly. A token older than the retained history gets one `expired` event and the "
                    + "stream ends; a comment line comes every 15 s; at shutdown every stream ends with a `shutdown` event."),
            "parameters": .list(
                pathParameters + [
                    Self.parameter("since", "A token from a previous answer's `next`.", schema: ["type": "string", "maxLength": 256]),
                    Self.parameter(
                        "limit", "Changes per answer, 1 to 1000 (default 100).",
                        schema: ["type": "integer", "minimum": 1, "maximum": 1000, "default": 100]),
                    Self.parameter(
                        "Last-Event-ID", in: "header",
                        "A stream's resume token (the `id` of the last event received); wins over `since`. A request for JSON ignores it.",
                        schema: ["type": "string"]),
                ] + selectionParameters(collection) + [Self.ref("AcceptLanguage", "parameters")]),
            "responses": Self.responseMap(
                [
                    (
                        "200",
                        Self.answer(
                            "Changes, the token to resume from, and whether more follow; or, asked for, their stream.",
                            headers: ["Content-Language", "X-Request-ID"]
                        ).setting(
                            "content",
                            to: [
                                "application/json": ["schema": Self.ref("ChangeFeed")],
                                "text/event-stream": [
                                    "schema": [
                                        "type": "string",
                                        "description":
                                            "Server-sent events: `changes` (data: a ChangeFeed's `changes`, `total`, `sections` and `referencesVersion`), `expired`, `revoked`, `shutdown`.",
                                    ]
                                ],
                            ])
                    )
                ], problems: [400, 404, 410, 503]),
        ]
    }

    func lettersOperation(_ collection: CollectionDefinition, pathParameters: [YAMLNode]) -> YAMLNode {
        let texts = collection.sorts.filter { ListParameters.isText(collection, sort: $0.name) }.map { "`\($0.name)`" }
        return [
            "tags": ["lists"],
            "operationId": .string("letters\(Self.typeName(collection))"),
            "summary": .string("The letter index of one list of \(collection.name) in text order."),
            "description": .string(
                "The list is named by the same parameters as a page (its first sort by a text: \(texts.joined(separator: ", ")); "
                    + "no sections), as the page's `links.index` gives them. Each first letter of that text, folded (case and accents: "
                    + "`Ä` files under A), in the list's order, with its rows (counted up to 1,000; past it, at least that) and the "
                    + "link that opens the list at its first row. At most 200 letters; blank texts have none."),
            "parameters": .list(
                pathParameters + selectionParameters(collection) + [Self.ref("AcceptLanguage", "parameters"), Self.ref("IfNoneMatch", "parameters")]),
            "responses": Self.responseMap(
                [
                    (
                        "200",
                        Self.answer(
                            "The letters.", headers: ["ETag", "Content-Language", "Vary", "Cache-Control", "X-Request-ID"],
                            json: Self.ref("LetterIndex"))
                    ),
                    ("304", Self.ref("NotModified", "responses")),
                ], problems: [400, 404]),
        ]
    }
}
