import Domain
import Yams

/// Sorts, the default order, filters, search and sections of one collection.
extension DefinitionChecker {
    static func isSortable(_ type: FieldType) -> Bool {
        switch type {
        case .text, .email, .phone, .image, .money, .integer, .decimal, .boolean, .date, .dateTime, .enumeration: true
        case .longText, .markdown, .reference, .numbers, .names: false
        }
    }

    /// `sort: [field…]` (each sort named after its field) or `sort: {name: field}`.
    mutating func sorts(_ node: Node, in scope: CollectionScope) -> [SortDefinition]? {
        let what = "`sort` of \(scope.draft.what)"
        var pairs: [(name: String?, nameNode: Node, field: String?, fieldNode: Node)] = []
        switch node {
        case .sequence(let sequence):
            for element in sequence {
                let name = string(element, "A sort of \(what)")
                pairs.append((name, element, name, element))
            }
        case .mapping:
            for entry in entries(node, what) ?? [] {
                pairs.append(
                    (identifier(entry.keyNode, "The sort name"), entry.keyNode, string(entry.value, "The field of sort `\(entry.key)`"), entry.value))
            }
        default:
            return refuseKind(node, what, expected: "a list of field names or a mapping of sort name to field name")
        }
        var sorts: [SortDefinition] = []
        var broken = false
        for pair in pairs {
            guard let name = pair.name, let fieldName = pair.field,
                let index = field(fieldName, at: pair.fieldNode, in: scope, code: "sort-on-missing-field", "The sort `\(Self.shortened(name))`")
            else {
                broken = true
                continue
            }
            let field = scope.fields[index]
            if !field.isStored {
                report(
                    "sort-unsortable-type", "The sort `\(name)` is on `\(fieldName)`, a computed field; sort by the stored field it shows.",
                    at: pair.fieldNode)
                broken = true
            } else if let type = field.type, !Self.isSortable(type) {
                report(
                    "sort-unsortable-type",
                    "The sort `\(name)` is on `\(fieldName)`, \(type.name.withIndefiniteArticle) field, which cannot be sorted "
                        + "(longText, markdown, reference, numbers and names cannot).", at: pair.fieldNode)
                broken = true
            } else if sorts.contains(where: { $0.name == name }) {
                report("duplicate-sort", "The sort `\(name)` appears twice in \(what.lowercasedFirst); keep one.", at: pair.nameNode)
                broken = true
            } else {
                sorts.append(SortDefinition(name: name, field: index))
            }
        }
        return broken ? nil : sorts
    }

    /// `defaultSort: [name, -name]`; without it, the first sort ascending (or the id alone).
    mutating func defaultSort(_ node: Node?, sorts: [SortDefinition], in scope: CollectionScope) -> [SortKey]? {
        guard let node else { return sorts.first.map { [SortKey($0.name)] } ?? [] }
        let what = "`defaultSort` of \(scope.draft.what)"
        guard let elements = list(node, what) else { return nil }
        var keys: [SortKey] = []
        var broken = false
        for element in elements {
            guard let text = string(element, "An entry of \(what)") else {
                broken = true
                continue
            }
            let descending = text.hasPrefix("-")
            let name = descending ? String(text.dropFirst()) : text
            if !sorts.contains(where: { $0.name == name }) {
                let names = sorts.map(\.name)
                let known = names.isEmpty ? "it declares no sorts" : "its sorts: \(names.joined(separator: ", "))"
                report(
                    "default-sort-unknown", "\(what) names `\(Self.shortened(name))`, which is not a sort of \(scope.draft.what) (\(known)).",
                    at: element)
                broken = true
            } else if keys.contains(where: { $0.field == name }) {
                report("duplicate-sort", "\(what) names `\(name)` twice; keep one.", at: element)
                broken = true
            } else {
                keys.append(SortKey(name, descending: descending))
            }
        }
        return broken ? nil : keys
    }

    static let reservedFilterNames = ["limit", "cursor", "around", "sort", "q", "view", "group", "count"]

    static func operations(for type: FieldType) -> [FilterDefinition.Operation] {
        switch type {
        case .text, .email, .phone, .enumeration, .reference: [.equals, .oneOf]
        case .image, .boolean: [.equals]
        case .integer, .decimal, .date, .dateTime, .money: [.equals, .atLeast, .atMost]
        case .longText, .markdown, .numbers, .names: []
        }
    }

    mutating func filters(_ node: Node, in scope: CollectionScope) -> [FilterDefinition]? {
        let what = "`filters` of \(scope.draft.what)"
        guard let entries = entries(node, what) else { return nil }
        var filters: [FilterDefinition] = []
        var broken = false
        for entry in entries {
            if let filter = filter(entry, in: scope) { filters.append(filter) } else { broken = true }
        }
        return broken ? nil : filters
    }

    private mutating func filter(_ entry: Entry, in scope: CollectionScope) -> FilterDefinition? {
        let what = "the filter `\(Self.shortened(entry.key))` of \(scope.draft.what)"
        let name = identifier(entry.keyNode, "The filter name")
        if let name, Self.reservedFilterNames.contains(name) {
            report(
                "reserved-filter-name",
                "The filter name `\(name)` is a query parameter of every list (\(Self.reservedFilterNames.joined(separator: ", "))); rename it.",
                at: entry.keyNode)
        }
        guard let object = object(entry.value, what.capitalizedFirst, known: ["field", "op", "description"], required: ["field"]) else { return nil }
        var description: LocalizedText?
        var broken = false
        if let node = object.value("description") {
            description = text(node, "The description of \(what)")
            broken = description == nil
        }
        var operation = FilterDefinition.Operation.equals
        var operationNode: Node?
        if let node = object.value("op"), let text = string(node, "`op` of \(what)") {
            operationNode = node
            if let op = FilterDefinition.Operation(rawValue: text) {
                operation = op
            } else {
                return refuse("bad-choice", "`op` of \(what) must be equals, oneOf, atLeast or atMost, not \"\(Self.shortened(text))\".", at: node)
            }
        }
        guard let fieldNode = object.value("field"), let fieldName = string(fieldNode, "`field` of \(what)"),
            let index = field(fieldName, at: fieldNode, in: scope, code: "filter-on-missing-field", what.capitalizedFirst)
        else { return nil }
        let field = scope.fields[index]
        guard field.isStored else {
            return refuse(
                "filter-op-not-allowed", "\(what.capitalizedFirst) is on `\(fieldName)`, a computed field; filter a stored field.", at: fieldNode)
        }
        guard let type = field.type else { return nil }
        let allowed = Self.operations(for: type)
        guard allowed.contains(operation) else {
            let choices =
                allowed.isEmpty
                ? "\(type.name) fields cannot be filtered" : "\(type.name) fields allow \(allowed.map(\.rawValue).joined(separator: ", "))"
            return refuse(
                "filter-op-not-allowed", "\(what.capitalizedFirst) uses `\(operation.rawValue)` on `\(fieldName)`; \(choices).",
                at: operationNode ?? fieldNode)
        }
        guard let name, !Self.reservedFilterNames.contains(name), !broken else { return nil }
        return FilterDefinition(name: name, field: index, operation: operation, description: description)
    }

    /// `search: false`, or one or two values that read no reference; by default the row's
    /// title and subtitle, leaving out one that reads a reference.
    mutating func search(_ node: Node?, row: RowDefinition, in scope: CollectionScope) -> [ValueSpec]? {
        guard let node else {
            return [row.title, row.subtitle].compactMap { $0 }.filter { !scope.readsReference($0) }
        }
        let what = "`search` of \(scope.draft.what)"
        if case .scalar(let scalar) = node, node.tagName == .bool {
            if ["false", "no", "off"].contains(scalar.string.lowercased()) { return [] }
            return refuse(
                "wrong-kind", "\(what) must be false or a list of one or two values; leave it out to search the row's title and subtitle.", at: node)
        }
        guard let elements = list(node, what) else { return nil }
        guard (1...2).contains(elements.count) else {
            return refuse(
                "search-value-count", "\(what) lists \(EnglishCount.of(elements.count, "value")); search takes one or two (or false for none).",
                at: node)
        }
        var values: [ValueSpec] = []
        for element in elements {
            guard let spec = value(element, "A search value of \(scope.draft.what)", in: scope) else { continue }
            if scope.readsReference(spec) {
                report(
                    "search-reads-reference", "A search value of \(scope.draft.what) reads a reference field; search its own fields only.",
                    at: element)
                continue
            }
            values.append(spec)
        }
        return values.count == elements.count ? values : nil
    }

    /// `sections: {by: field, name: groupName}` on a reference or enum field.
    mutating func sections(_ node: Node, in scope: CollectionScope) -> SectionDefinition? {
        let what = "`sections` of \(scope.draft.what)"
        guard let object = object(node, what, known: ["by", "name"], required: ["by"]), let byNode = object.value("by"),
            let fieldName = string(byNode, "`by` of \(what)"),
            let index = field(fieldName, at: byNode, in: scope, code: "section-unknown-field", what.capitalizedFirst)
        else { return nil }
        let name = object.value("name").map { identifier($0, "The section name of \(scope.draft.what)") } ?? fieldName
        let field = scope.fields[index]
        switch field.type {
        case .reference?, .enumeration?:
            break
        case nil where field.isStored:
            return nil
        default:
            return refuse(
                "section-field-type",
                "\(what.capitalizedFirst) are by `\(fieldName)`, \(field.type.map { "\($0.name.withIndefiniteArticle) field" } ?? "a computed field"); "
                    + "sections are by a reference or an enum field.", at: byNode)
        }
        return name.map { SectionDefinition(name: $0, field: index) }
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
