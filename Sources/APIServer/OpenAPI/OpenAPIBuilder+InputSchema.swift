import Domain

/// The bodies of writes: a create's fields with the rules the server validates, and the merge
/// patch made from them.
extension OpenAPIBuilder {
    /// The fields clients write: stored, not read-only, and for a child not the parent
    /// reference (the path names the parent).
    func writableFields(_ collection: CollectionDefinition) -> [FieldDefinition] {
        collection.fields.enumerated().compactMap { index, field in
            guard field.isStored, !field.readOnly, index != collection.parent?.field else { return nil }
            return field
        }
    }

    /// Required: the required fields without a default. A field that is not required may be
    /// null, which the server reads as absent.
    func inputSchema(_ collection: CollectionDefinition) -> YAMLNode {
        let fields = writableFields(collection)
        let properties = fields.map { field in
            (field.name, Self.annotated(field.rules.required ? inputValue(field) : Self.nullable(inputValue(field)), field))
        }
        let required = fields.filter { $0.rules.required && $0.defaultValue == nil }.map(\.name)
        return Self.object(properties, required: required)
    }

    /// Nothing is required, not even inside a patched object: `{"price": {"currency": "EUR"}}`
    /// keeps the amount. `names` fields are left out: a patch must keep each existing entry's id
    /// at its position, which a schema cannot say.
    func patchSchema(_ collection: CollectionDefinition) -> YAMLNode {
        let inputProperties = inputSchema(collection)["properties"].map { node -> [(String, YAMLNode)] in
            guard case .map(let entries) = node else { return [] }
            return entries
        }
        let names = Set(writableFields(collection).filter { if case .names = $0.type { true } else { false } }.map(\.name))
        let properties = (inputProperties ?? []).filter { !names.contains($0.0) }.map { name, schema in
            (name, schema["properties"] != nil ? schema.setting("required", to: []) : schema)
        }
        var description = "A JSON merge patch: the fields to change; the id never changes."
        if !names.isEmpty {
            let list = names.sorted().map { "`\($0)`" }.joined(separator: ", ")
            description +=
                " \(list) are read here as written by POST; a patch that sends one must keep every existing entry's id at its"
                + " position and may only append new ones (values aligned with the entries are stored by position), so the schema"
                + " leaves them out."
        }
        return ["type": "object", "properties": .map(properties), "additionalProperties": false, "description": .string(description)]
    }

    /// A written value's shape and rules.
    private func inputValue(_ field: FieldDefinition) -> YAMLNode {
        let rules = field.rules
        switch field.type {
        case .text, .longText, .markdown, .email, .phone, .image:
            return Self.textSchema(field.type, rules: rules)
        case .money:
            var minorUnits: YAMLNode = ["type": "integer"]
            if let minimum = rules.minimum { minorUnits = minorUnits.setting("minimum", to: .int(minimum)) }
            if let maximum = rules.maximum { minorUnits = minorUnits.setting("maximum", to: .int(maximum)) }
            if let sentence = Self.moneyBoundsSentence(rules) { minorUnits = minorUnits.setting("description", to: .string(sentence)) }
            let currencies = rules.currencies ?? Currency.all.map(\.code)
            return Self.object([("minorUnits", minorUnits), ("currency", ["type": "string", "enum": .strings(currencies)])])
        case .integer:
            return Self.bounded(["type": "integer"], rules.minimum.map { .int($0) }, rules.maximum.map { .int($0) })
        case .decimal(let scale):
            return Self.bounded(
                ["type": "number"], rules.minimum.map { .number(Self.decimalText($0, scale: scale)) },
                rules.maximum.map { .number(Self.decimalText($0, scale: scale)) })
        case .boolean:
            return ["type": "boolean"]
        case .date:
            return Self.withRange(
                ["type": "string", "format": "date"], rules.minimum.map(DateText.text(days:)), rules.maximum.map(DateText.text(days:)))
        case .dateTime:
            return Self.withRange(
                ["type": "string", "format": "date-time"], rules.minimum.map(DateText.rfc3339(milliseconds:)),
                rules.maximum.map(DateText.rfc3339(milliseconds:)))
        case .enumeration(let cases):
            return ["type": "string", "enum": .strings(cases.map(\.value))]
        case .reference(let target):
            let pattern = kind(ofCollection: target).map { YAMLNode.string(Self.idPattern($0)) }
            return [
                "type": "string", "pattern": pattern ?? .string(Self.noNUL),
                "description": .string("An existing \(target) item's id (422 when none has it)."),
            ]
        case .numbers:
            return Self.counted(["type": "array", "items": ["type": "number"]], rules)
        case .names:
            let name = Self.textSchema(maxLength: rules.maxLength, minLength: max(1, rules.minLength ?? 1), typePattern: Self.notBlank, pattern: nil)
            return Self.counted(["type": "array", "items": Self.object([("name", name)])], rules)
        }
    }

    /// Text: lengths in Unicode scalars, never a NUL, required text never blank (e-mail and phone
    /// patterns say as much), and the definition's own pattern on top, anchored as the server
    /// matches it.
    static func textSchema(_ type: FieldType, rules: FieldRules) -> YAMLNode {
        let typePattern =
            switch type {
            case .email: emailPattern
            case .phone: phonePattern
            default: rules.required ? notBlank : noNUL
            }
        // The e-mail pattern needs three characters at least (`a@b`).
        let shortest = type == .email ? 3 : 1
        let minLength = rules.required ? max(shortest, rules.minLength ?? shortest) : rules.minLength
        return textSchema(maxLength: rules.maxLength, minLength: minLength, typePattern: typePattern, pattern: rules.pattern)
    }

    private static func textSchema(maxLength: Int?, minLength: Int?, typePattern: String, pattern: String?) -> YAMLNode {
        var schema: YAMLNode = ["type": "string"]
        if let maxLength { schema = schema.setting("maxLength", to: .int(maxLength)) }
        schema = schema.setting("pattern", to: .string(typePattern))
        if let minLength { schema = schema.setting("minLength", to: .int(minLength)) }
        if let pattern { schema = schema.setting("allOf", to: [["pattern": .string("^(?:\(pattern))$")]]) }
        return schema
    }

    private static func bounded(_ schema: YAMLNode, _ minimum: YAMLNode?, _ maximum: YAMLNode?) -> YAMLNode {
        var result = schema
        if let minimum { result = result.setting("minimum", to: minimum) }
        if let maximum { result = result.setting("maximum", to: maximum) }
        return result
    }

    private static func counted(_ schema: YAMLNode, _ rules: FieldRules) -> YAMLNode {
        var result = schema
        if let minItems = rules.minItems { result = result.setting("minItems", to: .int(minItems)) }
        if let maxItems = rules.maxItems { result = result.setting("maxItems", to: .int(maxItems)) }
        return result
    }

    /// JSON Schema has no bounds for dates; the range goes into the description.
    private static func withRange(_ schema: YAMLNode, _ minimum: String?, _ maximum: String?) -> YAMLNode {
        let sentence: String? =
            switch (minimum, maximum) {
            case (let minimum?, let maximum?): "From \(minimum) to \(maximum), inclusive."
            case (let minimum?, nil): "\(minimum) or later."
            case (nil, let maximum?): "\(maximum) or earlier."
            case (nil, nil): nil
            }
        return sentence.map { schema.setting("description", to: .string($0)) } ?? schema
    }

    /// Bounds per currency cannot be `minimum`/`maximum` of `minorUnits` (the same keyword in
    /// every currency) and JSON Schema's `if`/`then` is beyond the client generators we check
    /// against, so they go into the description, in minor units and as a person reads them.
    static func moneyBoundsSentence(_ rules: FieldRules) -> String? {
        let codes = rules.moneyBounds.currencies
        guard !codes.isEmpty else { return nil }
        let parts = codes.map { code -> String in
            let (minimum, maximum) = rules.moneyRange(in: code)
            let shown = { (minor: Int64) in "\(minor) (\(Money(minorUnits: minor, currency: code).messageText))" }
            return switch (minimum, maximum) {
            case (let minimum?, let maximum?): "\(code) from \(shown(minimum)) to \(shown(maximum))"
            case (let minimum?, nil): "\(code) at least \(shown(minimum))"
            case (nil, let maximum?): "\(code) at most \(shown(maximum))"
            case (nil, nil): code
            }
        }
        return "Bounds per currency, inclusive: " + parts.joined(separator: "; ") + "."
    }

    /// A decimal bound in the definition's units: `1250` at scale 2 → `12.5`, `DecimalText.plain`
    /// without trailing fraction zeros, no exponent (a JSON number).
    static func decimalText(_ scaled: Int64, scale: Int) -> String {
        let plain = DecimalText.plain(scaled, scale: scale)
        guard scale > 0 else { return plain }
        return String(plain.reversed().drop(while: { $0 == "0" }).drop(while: { $0 == "." }).reversed())
    }
}
