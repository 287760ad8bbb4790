import Domain
import Yams

/// The second pass over one collection: every name it uses resolved, then its definition.
extension DefinitionChecker {
    /// The catalog, when the whole definition is free of mistakes.
    mutating func check(_ root: Node) -> Catalog? {
        guard let drafts = readDocument(root) else { return nil }
        checkIDPrefixes(drafts)
        var byName: [String: CollectionDraft] = [:]
        for draft in drafts where byName[draft.name] == nil { byName[draft.name] = draft }
        let definitions = drafts.map { resolve($0, collections: byName) }
        guard errors.isEmpty else { return nil }
        let resolved = definitions.compactMap { $0 }
        return resolved.count == drafts.count ? Catalog(collections: resolved) : nil
    }

    private mutating func resolve(_ draft: CollectionDraft, collections: [String: CollectionDraft]) -> CollectionDefinition? {
        guard let body = draft.body else { return nil }
        var scope = CollectionScope(draft: draft, collections: collections)
        var fields = resolveFields(&scope)
        var parent: ParentDefinition?
        if let node = body.value("parent") { parent = resolveParent(node, in: scope) }
        if let parent, let resolved = fields { fields = Self.cascading(resolved, parent: parent) }
        var tree: TreeDefinition?
        if let node = body.value("tree") { tree = resolveTree(node, in: scope) }
        var row: RowDefinition?
        if let node = body.value("row") { row = self.row(node, in: scope) }
        var sorts: [SortDefinition]? = []
        if let node = body.value("sort") { sorts = self.sorts(node, in: scope) }
        var order: [SortKey]?
        if let sorts { order = defaultSort(body.value("defaultSort"), sorts: sorts, in: scope) }
        var filters: [FilterDefinition]? = []
        if let node = body.value("filters") { filters = self.filters(node, in: scope) }
        var search: [ValueSpec]?
        if let row {
            search = self.search(body.value("search"), row: row, in: scope)
        } else if let node = body.value("search") {
            _ = self.search(node, row: RowDefinition(title: .field(0)), in: scope)
        }
        var sections: SectionDefinition?
        var table: TableDefinition?
        var broken = false
        if let node = body.value("sections") {
            sections = self.sections(node, in: scope)
            broken = broken || sections == nil
        }
        if let node = body.value("table") {
            table = self.table(node, row: row, in: scope)
            broken = broken || table == nil
        }
        let empty = emptyState(body.value("empty"), "empty", fallback: .defaultEmpty, offers: [], in: draft)
        let searchEmpty = emptyState(
            body.value("searchEmpty"), "searchEmpty", fallback: .defaultSearchEmpty, offers: [EmptyStateDefinition.queryPlaceholder], in: draft)
        let filteredEmpty = emptyState(
            body.value("filteredEmpty"), "filteredEmpty", fallback: .defaultFilteredEmpty, offers: [EmptyStateDefinition.filtersPlaceholder],
            in: draft)
        var limits: ListLimits? = ListLimits()
        if let node = body.value("limit") { limits = self.limits(node, in: draft) }
        guard let kind = draft.kind, let title = draft.title, let fields, let row, let sorts, let order, let filters, let search,
            let empty, let searchEmpty, let filteredEmpty, let limits, !broken, body.value("parent") == nil || parent != nil,
            body.value("tree") == nil || tree != nil
        else { return nil }
        return CollectionDefinition(
            name: draft.name, kind: kind, title: title, fields: fields, row: row, sorts: sorts, defaultSort: order, filters: filters,
            search: search, sections: sections, table: table, empty: empty, searchEmpty: searchEmpty,
            filteredEmpty: filteredEmpty, limits: limits, parent: parent,
            writable: draft.writable, readsNeedKey: draft.readsNeedKey, defaultCount: draft.defaultCount, tree: tree)
    }

    /// `row: {title, subtitle, trailing, image, placeholder}`.
    private mutating func row(_ node: Node, in scope: CollectionScope) -> RowDefinition? {
        let what = "`row` of \(scope.draft.what)"
        guard let object = object(node, what, known: ["title", "subtitle", "trailing", "image", "placeholder"], required: ["title"]) else {
            return nil
        }
        var broken = false
        func line(_ key: String, _ checker: inout DefinitionChecker) -> ValueSpec? {
            guard let node = object.value(key) else { return nil }
            let spec = checker.value(node, "The row \(key) of \(scope.draft.what)", in: scope)
            if spec == nil { broken = true }
            return spec
        }
        let title = line("title", &self)
        let subtitle = line("subtitle", &self)
        let trailing = line("trailing", &self)
        var image: ImageSpec?
        if let imageNode = object.value("image") {
            image = rowImage(imageNode, in: scope)
            if image == nil { broken = true }
        }
        var placeholder: LocalizedText?
        if let placeholderNode = object.value("placeholder") {
            placeholder = self.placeholder(placeholderNode, "The row placeholder of \(scope.draft.what)")
            if placeholder == nil { broken = true }
        }
        guard let title, !broken else { return nil }
        return RowDefinition(title: title, subtitle: subtitle, trailing: trailing, image: image, placeholder: placeholder)
    }

    /// What a blank title shows instead: a text with something to read in every locale (a
    /// blank placeholder would bring back the blank row it stands in for).
    private mutating func placeholder(_ node: Node, _ what: String) -> LocalizedText? {
        guard let text = text(node, what) else { return nil }
        if let locale = RenderLocale.allCases.first(where: { ItemRenderer.isBlank(text[$0]) }) {
            return refuse(
                "blank-placeholder", "\(what) is blank in \(locale.rawValue); give a text a person can read (placeholder: New ticket).", at: node)
        }
        return text
    }

    /// An SF Symbols name for every row, or `{field: x}` of an image field.
    private mutating func rowImage(_ node: Node, in scope: CollectionScope) -> ImageSpec? {
        let what = "The row image of \(scope.draft.what)"
        if case .scalar = node {
            guard let name = symbol(node, what) else { return nil }
            return .symbol(name)
        }
        guard let object = object(node, what, known: ["field"], required: ["field"]), let fieldNode = object.value("field"),
            let name = string(fieldNode, "`field` of \(what.lowercasedFirst)"),
            let index = field(name, at: fieldNode, in: scope, code: "unknown-field", what)
        else { return nil }
        guard case .image? = scope.fields[index].type else {
            if scope.fields[index].type != nil || !scope.fields[index].isStored {
                report("image-field-not-image", "\(what) is `\(name)`, which is not an image field.", at: fieldNode)
            }
            return nil
        }
        return .field(index)
    }

    private mutating func symbol(_ node: Node, _ what: String) -> String? {
        guard let name = string(node, what) else { return nil }
        guard TextRules.isSymbolName(name) else {
            return refuse(
                "bad-symbol", "\(what) \"\(Self.shortened(name))\" is not an SF Symbols name (lowercase words and digits joined by dots: star.fill).",
                at: node)
        }
        return name
    }

    /// `{title, description, image}`; the parts left out are the built-in state's. A `{name}` in
    /// the title or description must be a placeholder the state `offers` (`{query}` in
    /// `searchEmpty`, `{filters}` in `filteredEmpty`): any other would show as typed.
    private mutating func emptyState(
        _ node: Node?, _ key: String, fallback: EmptyStateDefinition, offers: [String], in draft: CollectionDraft
    ) -> EmptyStateDefinition? {
        guard let node else { return fallback }
        let what = "`\(key)` of \(draft.what)"
        guard let object = object(node, what, known: ["title", "description", "image"], required: ["title"]) else { return nil }
        func text(_ part: String, _ checker: inout DefinitionChecker) -> LocalizedText? {
            guard let partNode = object.value(part), let text = checker.text(partNode, "The \(part) of \(what)") else { return nil }
            let unknown = RenderLocale.allCases.flatMap { EmptyStateDefinition.placeholders(in: text[$0]) }.filter { !offers.contains($0) }
            guard let name = unknown.first else { return text }
            let offered = offers.isEmpty ? "it offers none" : "it offers " + offers.map { "`{\($0)}`" }.joined(separator: ", ") + " only"
            return checker.refuse(
                "empty-state-unknown-placeholder",
                "The \(part) of \(what) uses `{\(Self.shortened(name))}`, which it cannot fill: \(offered). Write the text without braces.",
                at: partNode)
        }
        let title = text("title", &self)
        var description: LocalizedText? = fallback.description
        if object.value("description") != nil { description = text("description", &self) }
        var image: String? = fallback.image
        if let imageNode = object.value("image") { image = symbol(imageNode, "The image of \(what)") }
        guard let title, let description, let image else { return nil }
        return EmptyStateDefinition(title: title, description: description, image: image)
    }

    /// `limit: {default, max}`: page sizes, `max` at most 1000.
    private mutating func limits(_ node: Node, in draft: CollectionDraft) -> ListLimits? {
        let what = "`limit` of \(draft.what)"
        guard let object = object(node, what, known: ["default", "max"]) else { return nil }
        let maxLimit = object.value("max").map { count($0, "`max` of \(what)", in: 1...1000) } ?? 200
        let defaultLimit = object.value("default").map { count($0, "`default` of \(what)", in: 1...1000) } ?? min(50, maxLimit ?? 50)
        guard let maxLimit, let defaultLimit else { return nil }
        guard defaultLimit <= maxLimit else {
            return refuse(
                "limit-default-above-max", "`default` of \(what) (\(defaultLimit)) is above its `max` (\(maxLimit)).",
                at: object.value("default") ?? node)
        }
        return ListLimits(defaultLimit: defaultLimit, maxLimit: maxLimit)
    }
}
