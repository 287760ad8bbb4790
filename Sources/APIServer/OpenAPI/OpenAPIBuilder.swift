import Domain

/// Builds the parts of a catalog's OpenAPI document; its extensions each make one part (paths,
/// list parameters, item operations, components, schemas). Reads only Domain's catalog types.
struct OpenAPIBuilder {
    let catalog: Catalog

    /// The locales `Accept-Language` chooses from, as `Content-Language` names them.
    static let locales = RenderLocale.allCases.map(\.rawValue)

    /// Never a NUL: the pattern of optional text.
    static let noNUL = "^[^\\x00]*$"
    /// Not only whitespace, never a NUL: the pattern of required text (the server refuses blank text).
    static let notBlank = "^[^\\x00]*[^\\s\\x00][^\\x00]*$"
    static let emailPattern = "^[^@\\s\\x00]+@[^@\\s\\x00]+$"
    static let phonePattern = "^[ ()+.-]*[0-9][0-9 ()+.-]*$"

    // Computed, not stored: a stored indirect enum is a false leak for LeakSanitizer (the fuzzers).
    static var nullableString: YAMLNode { ["type": ["string", "null"]] }
    /// A link the server gives: a path under `/v1/`.
    // Computed, not stored: a stored indirect enum is a false leak for LeakSanitizer (the fuzzers).
    static var link: YAMLNode { ["type": "string", "pattern": "^/v1/"] }
    // Computed, not stored: a stored indirect enum is a false leak for LeakSanitizer (the fuzzers).
    static var nullableLink: YAMLNode { ["type": ["string", "null"], "pattern": "^/v1/"] }

    /// `#/components/<kind>/<name>`.
    static func ref(_ name: String, _ kind: String = "schemas") -> YAMLNode {
        ["$ref": .string("#/components/\(kind)/\(name)")]
    }

    /// An optional parameter of the query (or, `in: "header"`, a header).
    static func parameter(_ name: String, in place: YAMLNode = "query", _ description: String, schema: YAMLNode) -> YAMLNode {
        ["name": .string(name), "in": place, "required": false, "description": .string(description), "schema": schema]
    }

    /// An object with exactly these properties, all required unless `required` says which.
    static func object(_ properties: [(String, YAMLNode)], required: [String]? = nil, additional: Bool = false) -> YAMLNode {
        [
            "type": "object",
            "properties": .map(properties),
            "required": .strings(required ?? properties.map(\.0)),
            "additionalProperties": .bool(additional),
        ]
    }

    /// The ids of a kind: its prefix, `_`, then 16 Crockford base-32 digits.
    static func idPattern(_ kind: EntityKind) -> String { "^\(idBody(kind))$" }

    /// An id without anchors, to repeat in a list pattern.
    static func idBody(_ kind: EntityKind) -> String { "\(kind.rawValue)_[0-9a-hjkmnp-tv-z]{16}" }

    /// `{"400": {$ref: …/Problem400}, …}` entries of a responses map.
    static func problems(_ statuses: [Int]) -> [(String, YAMLNode)] {
        statuses.map { (String($0), ref("Problem\($0)", "responses")) }
    }

    /// An operation's responses: `answers`, a problem for each of `statuses`, then the default problem.
    static func responseMap(_ answers: [(String, YAMLNode)], problems statuses: [Int]) -> YAMLNode {
        .map(answers + problems(statuses) + [("default", ref("Problem", "responses"))])
    }

    /// An answer with `headers` in this order, each its component named without dashes
    /// (`Content-Language`: `ContentLanguage`), and a JSON body of `schema` when given.
    static func answer(_ description: String, headers: [String], json schema: YAMLNode? = nil) -> YAMLNode {
        let answer: YAMLNode = ["description": .string(description), "headers": .map(headers.map { ($0, ref($0.filter { $0 != "-" }, "headers")) })]
        return schema.map { answer.setting("content", to: ["application/json": ["schema": $0]]) } ?? answer
    }

    /// The schema also allowing null: `type` gains `"null"` and an `enum` gains `null`.
    /// Properties, patterns and bounds apply only to their own type, so they stay as they are.
    static func nullable(_ schema: YAMLNode) -> YAMLNode {
        var result = schema
        switch schema["type"] {
        case .string(let type)?: result = result.setting("type", to: .list([.string(type), "null"]))
        case .list(let types)? where !types.contains(where: { $0.stringValue == "null" }):
            result = result.setting("type", to: .list(types + ["null"]))
        default: break
        }
        if case .list(let values)? = schema["enum"] { result = result.setting("enum", to: .list(values + [.null])) }
        return result
    }

    /// `products` → `Products`: the stem of the collection's operation ids and schema names.
    static func typeName(_ collection: CollectionDefinition) -> String {
        collection.name.prefix(1).uppercased() + collection.name.dropFirst()
    }

    static func detailSchemaName(_ collection: CollectionDefinition) -> String { typeName(collection) + "Detail" }
    static func inputSchemaName(_ collection: CollectionDefinition) -> String { typeName(collection) + "Input" }
    static func patchSchemaName(_ collection: CollectionDefinition) -> String { typeName(collection) + "Patch" }

    /// The regular-expression form of a literal (enum values in list patterns).
    static func escapedForPattern(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// The referenced collection's kind; nil for a name the catalog does not have (the loader
    /// refuses such a catalog, so only a hand-built one can get here).
    func kind(ofCollection name: String) -> EntityKind? { catalog.collection(named: name)?.kind }
}
