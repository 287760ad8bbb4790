import Domain
import Yams

/// The table view: columns (fields, percentages of money, one per label) and the compact summary.
extension DefinitionChecker {
    mutating func table(_ node: Node, row: RowDefinition?, in scope: CollectionScope) -> TableDefinition? {
        let what = "`table` of \(scope.draft.what)"
        guard let object = object(node, what, known: ["columns", "compact"], required: ["columns"]) else { return nil }
        var columns: [ColumnDefinition] = []
        var broken = false
        if let columnsNode = object.value("columns"), let elements = list(columnsNode, "`columns` of \(what)") {
            if elements.isEmpty {
                report("empty-list", "`columns` of \(what) is empty: list at least one column.", at: columnsNode)
                broken = true
            }
            var ids: Set<String> = []
            for element in elements {
                guard let (column, idNode) = column(element, in: scope) else {
                    broken = true
                    continue
                }
                if case .value(let id, _, _, _) = column, !ids.insert(id).inserted {
                    report("duplicate-column-id", "Two columns of \(what) have the id `\(id)`; give one an `id` of its own.", at: idNode)
                    broken = true
                } else if case .percent(let id, _, _, _) = column, !ids.insert(id).inserted {
                    report("duplicate-column-id", "Two columns of \(what) have the id `\(id)`; give one an `id` of its own.", at: idNode)
                    broken = true
                } else if case .days(let id, _, _, _) = column, !ids.insert(id).inserted {
                    report("duplicate-column-id", "Two columns of \(what) have the id `\(id)`; give one an `id` of its own.", at: idNode)
                    broken = true
                }
                columns.append(column)
            }
        } else {
            broken = true
        }
        var compactTitle = row?.title
        var compactSubtitle = row?.subtitle
        if let compactNode = object.value("compact") {
            let place = "`compact` of \(what)"
            guard let compact = self.object(compactNode, place, known: ["title", "subtitle"], required: ["title"]) else { return nil }
            compactTitle = compact.value("title").flatMap { value($0, "The compact title of \(scope.draft.what)", in: scope) }
            compactSubtitle = nil
            if let subtitleNode = compact.value("subtitle") {
                compactSubtitle = value(subtitleNode, "The compact subtitle of \(scope.draft.what)", in: scope)
                if compactSubtitle == nil { broken = true }
            }
        }
        guard !broken, let compactTitle else { return nil }
        return TableDefinition(columns: columns, compactTitle: compactTitle, compactSubtitle: compactSubtitle)
    }

    /// One column, and the node its id comes from (for a repeated id).
    private mutating func column(_ node: Node, in scope: CollectionScope) -> (ColumnDefinition, Node)? {
        let what = "A column of \(scope.draft.what)"
        if case .scalar = node {
            guard let name = string(node, what), let index = field(name, at: node, in: scope, code: "column-unknown-field", what) else { return nil }
            return (fieldColumn(index, id: name, title: nil, alignment: nil, in: scope), node)
        }
        guard case .mapping(let mapping) = node else {
            return refuseKind(node, what, expected: "a field name or a mapping")
        }
        let keys = Set(
            mapping.keys.compactMap { key -> String? in
                if case .scalar(let scalar) = key { return scalar.string }
                return nil
            })
        if keys.contains("forEach") {
            guard let object = object(node, what, known: ["forEach"]), let fieldNode = object.value("forEach"),
                let name = string(fieldNode, "`forEach` of \(what.lowercasedFirst)"),
                let index = field(name, at: fieldNode, in: scope, code: "column-unknown-field", what)
            else { return nil }
            guard case .numbers? = scope.fields[index].type, scope.fields[index].labels != nil else {
                if scope.fields[index].type != nil || !scope.fields[index].isStored {
                    report(
                        "foreach-without-labels", "`forEach: \(name)` needs a numbers field with `labels` (one column per label); `\(name)` is not.",
                        at: fieldNode)
                }
                return nil
            }
            return (.forEach(field: index), fieldNode)
        }
        if keys.contains("daysBetween") {
            return daysColumn(node, in: scope)
        }
        if keys.contains("percentOf") {
            let known = ["id", "title", "percentOf", "percent"]
            guard let object = object(node, what, known: known, required: known), let idNode = object.value("id"),
                let fieldNode = object.value("percentOf"), let percentNode = object.value("percent"), let titleNode = object.value("title")
            else { return nil }
            let id = identifier(idNode, "The column id")
            let title = text(titleNode, "The title of the column `\(id ?? "?")`")
            let percent = integer(percentNode, "`percent` of the column `\(id ?? "?")`", in: 1...10_000)
            guard let name = string(fieldNode, "`percentOf` of the column `\(id ?? "?")`"),
                let index = field(name, at: fieldNode, in: scope, code: "column-unknown-field", what)
            else { return nil }
            guard case .money? = scope.fields[index].type else {
                if scope.fields[index].type != nil || !scope.fields[index].isStored {
                    report("percent-of-non-money", "`percentOf: \(name)` of the column `\(id ?? "?")` must name a money field.", at: fieldNode)
                }
                return nil
            }
            guard let id, let title, let percent else { return nil }
            return (.percent(id: id, title: title, field: index, percent: percent), idNode)
        }
        guard let object = object(node, what, known: ["field", "id", "title", "align"], required: ["field"]), let fieldNode = object.value("field"),
            let name = string(fieldNode, "`field` of \(what.lowercasedFirst)")
        else { return nil }
        let index = field(name, at: fieldNode, in: scope, code: "column-unknown-field", what)
        let id = object.value("id").map { identifier($0, "The column id") } ?? name
        var broken = false
        var title: LocalizedText?
        if let titleNode = object.value("title") {
            title = text(titleNode, "The title of the column `\(id ?? name)`")
            broken = title == nil
        }
        var alignment: ColumnAlignment?
        if let alignNode = object.value("align"), let text = string(alignNode, "`align` of the column `\(id ?? name)`") {
            alignment = ColumnAlignment(rawValue: text)
            if alignment == nil {
                return refuse(
                    "bad-choice", "`align` of the column `\(id ?? name)` must be leading or numeric, not \"\(Self.shortened(text))\".", at: alignNode)
            }
        }
        guard let index, let id, !broken else { return nil }
        return (fieldColumn(index, id: id, title: title, alignment: alignment, in: scope), object.value("id") ?? fieldNode)
    }

    private func fieldColumn(_ index: Int, id: String, title: LocalizedText?, alignment: ColumnAlignment?, in scope: CollectionScope)
        -> ColumnDefinition
    {
        let field = scope.fields[index]
        let type = field.type ?? .text
        return .value(
            id: id, title: title ?? field.label, value: .field(index), alignment: alignment ?? (type.isNumeric ? .numeric : .leading))
    }

    /// `{id, title, daysBetween: [from, to]}`: whole days between two date or date-time fields.
    private mutating func daysColumn(_ node: Node, in scope: CollectionScope) -> (ColumnDefinition, Node)? {
        let what = "A column of \(scope.draft.what)"
        let known = ["id", "title", "daysBetween"]
        guard let object = object(node, what, known: known, required: known), let idNode = object.value("id"),
            let betweenNode = object.value("daysBetween"), let titleNode = object.value("title")
        else { return nil }
        let id = identifier(idNode, "The column id")
        let title = text(titleNode, "The title of the column `\(id ?? "?")`")
        guard let elements = list(betweenNode, "`daysBetween` of the column `\(id ?? "?")`") else { return nil }
        guard elements.count == 2 else {
            return refuse(
                "days-between-two-fields",
                "`daysBetween` of the column `\(id ?? "?")` names \(elements.count) field\(elements.count == 1 ? "" : "s"); it takes two: [from, to].",
                at: betweenNode)
        }
        var indexes: [Int] = []
        for element in elements {
            guard let name = string(element, "A field of `daysBetween`"),
                let index = field(name, at: element, in: scope, code: "column-unknown-field", what)
            else { return nil }
            switch scope.fields[index].type {
            case .date?, .dateTime?:
                indexes.append(index)
            case nil where scope.fields[index].isStored:
                return nil
            default:
                return refuse(
                    "days-between-non-date", "`daysBetween` of the column `\(id ?? "?")` names `\(name)`, which is not a date or dateTime field.",
                    at: element)
            }
        }
        guard let id, let title else { return nil }
        return (.days(id: id, title: title, from: indexes[0], to: indexes[1]), idNode)
    }
}
