import Domain

/// The schemas every catalog shares: problems, health, the index, rows, pages, tables and the
/// change feed.
extension OpenAPIBuilder {
    /// Which of a collection's empty states a page carries.
    static let emptyDescription =
        "What to show when there are no rows, null otherwise: the collection's `searchEmpty` state when a search (`q`) found "
        + "nothing, with or without filters; its `filteredEmpty` state when filters alone kept nothing; else its `empty` state."

    func sharedSchemas() -> [(String, YAMLNode)] {
        let string: YAMLNode = ["type": "string"]
        let order: YAMLNode = ["type": "string", "enum": ["ascending", "descending"]]
        let title: YAMLNode = [
            "type": "string",
            "description":
                "Never blank: a title the item's values leave blank shows the collection's placeholder, else \"Untitled\" in the Content-Language.",
        ]
        let compact = Self.object([("title", title), ("subtitle", Self.nullableString)])
        let cells: YAMLNode = ["type": "object", "additionalProperties": Self.nullableString]
        let emptyState = Self.object([
            ("title", string), ("description", string), ("image", ["type": "string", "description": "An SF Symbols name."]),
        ])
        let largestPage = catalog.collections.map(\.limits.maxLimit).max() ?? ListLimits().maxLimit
        // Only a selection by id (`ids`) has it: its rows are those of the ids found.
        let missing: (String, YAMLNode) = (
            "missing",
            [
                "type": "array", "items": string,
                "description": "A selection by id (`ids`) only: the ids it named that have no row in this list, in the order named.",
            ]
        )
        let pageCommon: [(String, YAMLNode)] = [
            ("next", ["type": ["string", "null"], "description": "The cursor of the next page; null on the last one."]),
            ("limit", ["type": "integer", "minimum": 1, "maximum": .int(largestPage)]),
            // Nullable objects are written as `type: [object, "null"]` rather than `oneOf` with a
            // null schema, which swift-openapi-generator skips ("Schema null is not supported").
            ("empty", Self.nullable(emptyState).setting("description", to: .string(Self.emptyDescription))),
            ("links", Self.ref("PageLinks")),
        ]
        // Only a counted list (`count`, or its collection's default) has it.
        let total: (String, YAMLNode) = ("total", Self.ref("ListTotal"))
        let rows: YAMLNode = ["type": "array", "items": Self.ref("RenderRow")]
        let outline = outlineProperties
        let row: [(String, YAMLNode)] = [
            ("id", string), ("title", title), ("subtitle", Self.nullableString), ("trailing", Self.nullableString), ("image", Self.nullableString),
            ("detail", Self.link),
        ]
        let tableRow: [(String, YAMLNode)] = [("id", string), ("cells", cells), ("compact", compact), ("detail", Self.link)]
        let pageLinks: [(String, YAMLNode)] = [
            ("self", Self.link), ("next", ["type": ["string", "null"]]),
            ("prev", ["type": ["string", "null"], "description": "The page before this one; null on the list's first page."]),
            ("first", ["type": ["string", "null"], "description": "The list's first page; null on it."]),
            (
                "changes",
                [
                    "type": "string", "pattern": "^/v1/",
                    "description": "This list's change feed (a child list's holds its parent's children only).",
                ]
            ),
            (
                "stream",
                [
                    "type": "string", "pattern": "^/v1/",
                    "description":
                        "This list's changes pushed as server-sent events (`new EventSource(link)`: its feed, asked for `text/event-stream`).",
                ]
            ),
            ("index", ["type": ["string", "null"], "description": "This list's letter index; null for a list not in text order."]),
        ]
        return [
            ("Problem", Self.problemSchema),
            ("Health", Self.healthSchema),
            ("Index", indexSchema()),
            (
                "SortKey",
                Self.object([
                    ("sort", ["type": "string", "description": "The sort's name, as `sort=` takes it."]),
                    (
                        "field",
                        ["type": "string", "description": "The sort's name too (not its field's, when the two differ); kept for older clients."]
                    ),
                    ("order", order),
                ])
            ),
            (
                "RenderRow",
                Self.object(row + outline.row, required: row.map(\.0)).setting(
                    "description", to: "Every row has every key; absent values are null.")
            ),
            ("EmptyState", emptyState),
            ("PageLinks", Self.object(pageLinks + outline.links, required: pageLinks.map(\.0))),
            ("ListTotal", Self.totalSchema),
            ("RowPage", Self.object([("rows", rows)] + pageCommon + [total, missing], required: ["rows"] + pageCommon.map(\.0))),
            (
                "Section",
                Self.object(
                    [("id", string), ("header", string), ("detail", Self.nullableLink), ("count", Self.ref("ListTotal")), ("rows", rows)],
                    required: ["id", "header", "detail", "rows"])
            ),
            (
                "SectionPage",
                Self.object(
                    [("sections", ["type": "array", "items": Self.ref("Section")])] + pageCommon + [total],
                    required: ["sections"] + pageCommon.map(\.0))
            ),
            (
                "TableColumn",
                Self.object([
                    ("id", string), ("title", string), ("sortable", ["type": "boolean"]),
                    ("alignment", ["type": "string", "enum": ["leading", "numeric"]]),
                    ("links", Self.nullable(Self.object([("ascending", Self.link), ("descending", Self.link)]))),
                ])
            ),
            ("TableRow", Self.object(tableRow + outline.row, required: tableRow.map(\.0))),
            (
                "TablePage",
                Self.object(
                    [
                        ("columns", ["type": "array", "items": Self.ref("TableColumn")]),
                        ("sort", ["type": "array", "items": Self.object([("column", string), ("order", order)])]),
                        ("rows", ["type": "array", "items": Self.ref("TableRow")]),
                    ] + pageCommon + [total, missing], required: ["columns", "sort", "rows"] + pageCommon.map(\.0))
            ),
            ("ChangeFeed", Self.changeFeedSchema(cells: cells, compact: compact)),
            (
                "LetterIndex",
                Self.object([
                    (
                        "letters",
                        [
                            "type": "array",
                            "items": Self.object([
                                ("letter", string), ("count", Self.ref("ListTotal")),
                                ("link", Self.link.setting("description", to: "The list, opened at the letter's first row.")),
                            ]),
                        ]
                    ),
                    ("links", Self.object([("self", Self.link), ("list", Self.link)])),
                ])
            ),
        ]
    }

    /// How many rows a counted list (or one of its sections) holds.
    private static var totalSchema: YAMLNode {
        object([
            ("value", ["type": "integer", "minimum": 0]),
            (
                "exact",
                [
                    "type": "boolean",
                    "description": .string(
                        "False for an estimate: past the exact count's bound (10,000 rows), or `estimated` on a collection of more "
                            + "than 1,000 rows: a sample of at most 1,000 of its rows, scaled to the collection."),
                ]
            ),
        ]).setting("description", to: "Present when the list is counted (`count`, or the collection's default).")
    }

    private static var problemSchema: YAMLNode {
        let string: YAMLNode = ["type": "string"]
        return object(
            [
                ("type", string), ("title", string), ("status", ["type": "integer", "minimum": 400, "maximum": 599]), ("detail", string),
                ("code", ["type": "string", "pattern": "^[A-Z][A-Z0-9_]*$", "description": "Stable, machine-readable."]),
                ("parameter", ["type": "string", "description": "The query parameter or header at fault."]),
                ("instance", string),
                ("errors", ["type": "array", "items": object([("pointer", string), ("detail", string)])]),
            ], required: ["type", "title", "status", "detail", "code"])
    }

    private static var healthSchema: YAMLNode {
        object([
            ("status", ["type": "string", "enum": ["ok", "unavailable"]]), ("version", ["type": "string"]),
            (
                "checks",
                [
                    "type": "array",
                    "items": object(
                        [("name", ["type": "string"]), ("status", ["type": "string", "enum": ["ok", "failed"]]), ("detail", ["type": "string"])],
                        required: ["name", "status"]),
                ]
            ),
        ])
    }

    /// A filter's `type` is `id:<prefix>` for a reference (the ids it takes), else the field's type name.
    private func indexSchema() -> YAMLNode {
        let string: YAMLNode = ["type": "string"]
        let typeNames = FieldType.names.filter { $0 != "reference" }.map(Self.escapedForPattern).joined(separator: "|")
        let filter = Self.object([
            ("name", string),
            (
                "type",
                [
                    "type": "string", "pattern": .string("^(id:[a-z]{3}|\(typeNames))$"),
                    "description":
                        "`id:<prefix>` for a reference (the ids of the referenced collection), else the field's type (`money`, `enum`, …).",
                ]
            ),
            ("description", ["type": "string", "description": "In the Content-Language."]),
        ])
        let links: [(String, YAMLNode)] = [
            ("list", Self.link), ("sections", ["type": ["string", "null"]]), ("table", ["type": ["string", "null"]]), ("changes", Self.link),
            (
                "batch",
                [
                    "type": ["string", "null"],
                    "description": "POST several creates, patches and deletes here; null when the collection is kept read-only.",
                ]
            ),
        ]
        let collection = Self.object([
            ("id", string), ("title", ["type": "string", "description": "The collection's title in the Content-Language."]),
            ("sortable", ["type": "array", "items": string]),
            ("defaultSort", ["type": "array", "items": Self.ref("SortKey")]),
            ("filters", ["type": "array", "items": filter]),
            ("sections", ["type": "boolean"]), ("table", ["type": "boolean"]),
            ("links", Self.object(links + outlineProperties.links, required: links.map(\.0))),
        ])
        return Self.object([("collections", ["type": "array", "items": collection])])
    }

    /// What an outline's rows and links add (none in a catalog without one): a row's `childCount`
    /// and `children`, and the link to the roots.
    private var outlineProperties: (row: [(String, YAMLNode)], links: [(String, YAMLNode)]) {
        guard catalog.collections.contains(where: { $0.tree != nil }) else { return ([], []) }
        return (
            [
                ("childCount", ["type": ["integer", "null"], "minimum": 0, "description": "An outline's row: how many children it has."]),
                ("children", ["type": "string", "pattern": "^/v1/", "description": "An outline's row: the list of its children."]),
            ],
            [("roots", ["type": "string", "pattern": "^/v1/", "description": "An outline's list: the list of its roots."])]
        )
    }

    /// An upsert carries the row, and may carry where it now falls (`section`, for a grouped list)
    /// and its table form (`cells`, `compact`).
    private static func changeFeedSchema(cells: YAMLNode, compact: YAMLNode) -> YAMLNode {
        let string: YAMLNode = ["type": "string"]
        let section = nullable(object([("id", string), ("header", string), ("detail", nullableLink)]))
        let after: YAMLNode = ["type": ["string", "null"], "description": "The id of the row just before this one in the list; null: it is first."]
        let upsert = object(
            [
                ("op", ["const": "upsert"]), ("id", string), ("after", after), ("row", ref("RenderRow")), ("section", section), ("cells", cells),
                ("compact", compact),
            ],
            required: ["op", "id", "after", "row"])
        let delete = object([("op", ["const": "delete"]), ("id", string)])
        return object(
            [
                ("changes", ["type": "array", "items": ["oneOf": [upsert, delete]]]),
                ("next", string), ("more", ["type": "boolean"]),
                (
                    "referencesVersion",
                    [
                        "type": "string",
                        "description":
                            "Changes when an item the list's rows show through a reference changes (the feed lists changed items, not the rows that show them): read the rows again.",
                    ]
                ),
                ("links", object([("next", link)])),
                ("total", ref("ListTotal")),
                (
                    "sections",
                    [
                        "type": "array", "items": object([("id", string), ("count", ref("ListTotal"))]),
                        "description": .string(
                            "A counted, sectioned list: every section, counted, when the list is within the count's bound (a section "
                                + "missing has no rows); past it, the sections its sample found, estimated."),
                    ]
                ),
            ], required: ["changes", "next", "more", "referencesVersion", "links"])
    }
}
