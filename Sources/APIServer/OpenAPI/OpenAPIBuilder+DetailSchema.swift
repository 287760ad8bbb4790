import Domain

/// A collection's detail: the id, every field in declared order (a reference followed by its
/// embedded item), then the links.
extension OpenAPIBuilder {
    func detailSchema(_ collection: CollectionDefinition) -> YAMLNode {
        var properties: [(String, YAMLNode)] = [("id", ["type": "string", "pattern": .string(Self.idPattern(collection.kind))])]
        for field in collection.fields {
            properties.append((field.name, Self.annotated(detailValue(field), field)))
            if let target = field.type.referencedCollection, let key = field.reference?.embed {
                properties.append((key, embedSchema(target: target, optional: !field.rules.required)))
            }
        }
        if collection.tree != nil {
            let ancestor = Self.object([
                ("id", ["type": "string", "pattern": .string(Self.idPattern(collection.kind))]), ("title", ["type": "string"]), ("detail", Self.link),
            ])
            properties.append(
                (
                    "ancestors",
                    ["type": "array", "items": ancestor, "description": "The node's ancestors, root first (empty for a root)."]
                ))
        }
        properties.append(("links", linksSchema(collection)))
        return Self.object(properties)
    }

    /// The field's label as the schema's title, and its description when the definition gives
    /// one, ahead of what the schema already says (a reference's, a date's range).
    static func annotated(_ schema: YAMLNode, _ field: FieldDefinition) -> YAMLNode {
        let result = schema.setting("title", to: .string(field.label.english))
        guard let description = field.description else { return result }
        let combined = schema["description"]?.stringValue.map { description + " " + $0 } ?? description
        return result.setting("description", to: .string(combined))
    }

    /// The value's shape in the detail; a field that is not required may be null.
    private func detailValue(_ field: FieldDefinition) -> YAMLNode {
        if field.computed != nil { return Self.nullableString }
        let schema: YAMLNode =
            switch field.type {
            case .text, .longText, .markdown, .email, .phone, .image: ["type": "string"]
            case .money:
                Self.object([
                    ("minorUnits", ["type": "integer"]), ("currency", ["type": "string", "pattern": "^[A-Z]{3}$"]),
                    ("formatted", ["type": "string"]),
                ])
            case .integer: ["type": "integer"]
            case .decimal: ["type": "number"]
            case .boolean: ["type": "boolean"]
            case .date: ["type": "string", "format": "date"]
            case .dateTime: ["type": "string", "format": "date-time"]
            case .enumeration(let cases): ["type": "string", "enum": .strings(cases.map(\.value))]
            case .reference(let target):
                kind(ofCollection: target).map { ["type": "string", "pattern": .string(Self.idPattern($0))] } ?? ["type": "string"]
            case .numbers:
                if let labels = field.labels {
                    [
                        "type": "array",
                        "items": Self.object([
                            (labels.labelKey, Self.nullableString), ("name", Self.nullableString),
                            (labels.valueKey, ["type": ["number", "null"]]), ("formatted", Self.nullableString),
                        ]),
                    ]
                } else {
                    ["type": "array", "items": ["type": "number"]]
                }
            case .names(let kind):
                [
                    "type": "array",
                    "items": Self.object([("id", ["type": "string", "pattern": .string(Self.idPattern(kind))]), ("name", ["type": "string"])]),
                ]
            }
        return field.rules.required ? schema : Self.nullable(schema)
    }

    /// `{id, <title key>, detail}` of the referenced item (`CollectionDefinition.embeddedTitleKey`).
    private func embedSchema(target: String, optional: Bool) -> YAMLNode {
        let titleKey = catalog.collection(named: target)?.embeddedTitleKey ?? "title"
        let schema = Self.object([("id", ["type": "string"]), (titleKey, Self.nullableString), ("detail", Self.link)])
        return optional ? Self.nullable(schema) : schema
    }

    /// `self`, `collection`, then each reference's `link`, each child list (and its table), and
    /// each other collection's list filtered to this item; a name already taken keeps its first use.
    private func linksSchema(_ collection: CollectionDefinition) -> YAMLNode {
        var links: [(String, YAMLNode)] = [("self", Self.link), ("collection", Self.link)]
        func add(_ name: String, _ schema: YAMLNode) {
            if !links.contains(where: { $0.0 == name }) { links.append((name, schema)) }
        }
        if collection.tree != nil, !catalog.children(of: collection).contains(where: { $0.name == "children" }) { add("children", Self.link) }
        for field in collection.fields {
            if let name = field.reference?.link, field.type.referencedCollection != nil {
                add(name, field.rules.required ? Self.link : Self.nullableLink)
            }
        }
        for child in catalog.children(of: collection) {
            add(child.name, Self.link)
            if child.table != nil { add(child.name + "Table", Self.link) }
        }
        for source in catalog.collections where source.name != collection.name {
            let pointsHere = source.filters.contains { filter in
                filter.operation == .equals && source.fields.indices.contains(filter.field)
                    && source.fields[filter.field].type.referencedCollection == collection.name
            }
            if pointsHere { add(source.name, Self.link) }
        }
        return Self.object(links)
    }
}
