/// Renders items of one collection as its definition declares: rows, field texts, sections and
/// search texts (tables in `ItemRenderer+Table.swift`). The generic counterpart of seed 000's
/// `Named` conformance: any collection that can be described gets its rows from here.
///
/// Built once per collection (it resolves the referenced collections up front) and shared by
/// every request; per call it only reads the item, the referenced items and the context.
public struct ItemRenderer: Sendable {
    public let collection: CollectionDefinition
    /// Per field index: the collection a reference field points to, resolved once.
    private let targets: [CollectionDefinition?]
    /// Per field index: how a reference field's target titles its items.
    private let titleRenderers: [ItemRenderer?]

    public init(collection: CollectionDefinition, catalog: Catalog) {
        self.collection = collection
        targets = collection.fields.map { field in field.type.referencedCollection.flatMap(catalog.collection(named:)) }
        titleRenderers = targets.map { target in target.map(ItemRenderer.init(resolved:)) }
    }

    /// The list row: title, subtitle and trailing as declared, and the image hint.
    public func row(_ item: Item, references: ReferencedItems = .none, in context: RenderContext) -> RenderRow {
        let row = collection.row
        return RenderRow(
            id: item.id,
            title: text(row.title, of: item, references: references, in: context) ?? "",
            subtitle: row.subtitle.flatMap { text($0, of: item, references: references, in: context) },
            trailing: row.trailing.flatMap { text($0, of: item, references: references, in: context) },
            image: image(of: item))
    }

    /// The title the row of `item` shows, without looking up references (a reference in the
    /// title shows the referenced id): what a section header or a reference cell shows of it.
    public func title(of item: Item, in context: RenderContext) -> String {
        text(collection.row.title, of: item, references: .none, in: context) ?? ""
    }

    /// What `spec` shows of `item`: the field formatted, or the template filled; cut to its preview.
    public func text(_ spec: ValueSpec, of item: Item, references: ReferencedItems, in context: RenderContext) -> String? {
        let full: String?
        switch spec.source {
        case .field(let index): full = fieldText(index, of: item, references: references, in: context)
        case .template(let template):
            var filled = ""
            for part in template.parts {
                switch part {
                case .literal(let literal): filled += literal
                case .field(let index): filled += fieldText(index, of: item, references: references, in: context) ?? ""
                }
            }
            full = filled
        }
        guard let preview = spec.preview else { return full }
        return full.flatMap { truncatedPreview($0, limit: preview) }
    }

    /// The field at `index` as rows show it (computed fields made from their spec); nil when null.
    public func fieldText(_ index: Int, of item: Item, references: ReferencedItems, in context: RenderContext) -> String? {
        guard collection.fields.indices.contains(index) else { return nil }
        let field = collection.fields[index]
        if let computed = field.computed { return text(computed, of: item, references: references, in: context) }
        guard let slot = field.slot else { return nil }
        let value = item[slot: slot]
        return FieldFormatter(context: context).format(
            value, as: field.type, referenceTitle: referenceTitle(value, field: index, references: references, in: context),
            names: labelNames(of: field, item: item, references: references))
    }

    /// The row's image hint: the declared symbol, or the image field's value.
    public func image(of item: Item) -> String? {
        switch collection.row.image {
        case .none: nil
        case .symbol(let name): name
        case .field(let index):
            collection.fields.indices.contains(index) ? collection.fields[index].slot.flatMap { item[slot: $0].text } : nil
        }
    }

    /// The title of the item a reference value points to; nil when it is not among `references`.
    func referenceTitle(_ value: FieldValue, field: Int, references: ReferencedItems, in context: RenderContext) -> String? {
        guard case .reference(let id) = value, let renderer = titleRenderers[field], let referenced = references[id] else { return nil }
        return renderer.title(of: referenced, in: context)
    }

    /// For a numbers field with labels: the names of the referenced item it is aligned with.
    public func labelNames(of field: FieldDefinition, item: Item, references: ReferencedItems) -> [NamedEntry]? {
        guard let labels = field.labels, collection.fields.indices.contains(labels.reference),
            let slot = collection.fields[labels.reference].slot, let id = item[slot: slot].reference,
            let target = targets[labels.reference], target.fields.indices.contains(labels.names),
            let namesSlot = target.fields[labels.names].slot
        else { return nil }
        return references[id]?[slot: namesSlot].names ?? []
    }

    /// The referenced collection of the reference field at `index`.
    public func target(ofField index: Int) -> CollectionDefinition? {
        targets.indices.contains(index) ? targets[index] : nil
    }

    /// A renderer for titles only: references inside a referenced title are not followed.
    private init(resolved collection: CollectionDefinition) {
        self.collection = collection
        targets = Array(repeating: nil, count: collection.fields.count)
        titleRenderers = targets.map { _ in nil }
    }
}
