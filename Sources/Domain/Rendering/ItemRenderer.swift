/// Renders items of one collection as its definition declares: field texts, sections, search
/// texts and table columns, and the plans list rows are written by (`RowPlan`, `TableRowPlan`).
/// The generic counterpart of seed 000's `Named` conformance: any collection that can be
/// described gets its rows from here.
///
/// Built once per collection (it resolves the referenced collections up front) and shared by
/// every request; per call it only reads the item, the referenced items and the context.
public struct ItemRenderer: Sendable {
    public let collection: CollectionDefinition
    /// Per field index: the collection a reference field points to, resolved once.
    private let targets: [CollectionDefinition?]
    /// Per field index: how a reference field's target titles its items.
    private let titleRenderers: [ItemRenderer?]
    /// Per field index: what formatting a value needs, so a row does not copy field definitions.
    private let plans: [FieldPlan]
    /// Per reference field index, per field index of its target: the reference's slot and the
    /// target field's slot (a numbers field's names: a track's channels), resolved once.
    private let labelSlots: [[Int: (reference: Int, names: Int)]]

    /// What each part of a list row is read from.
    public let rowPlan: RowPlan
    /// What each cell of a table row is read from (nil: no table).
    public let tableRowPlan: TableRowPlan?

    struct FieldPlan: Sendable {
        let slot: Int?
        let type: FieldType
        let computed: ValueSpec?
        let labels: LabelSource?
    }

    /// Without a catalog, a renderer for titles only: references inside a referenced title are not followed.
    public init(collection: CollectionDefinition, catalog: Catalog?) {
        self.collection = collection
        plans = collection.fields.map { FieldPlan(slot: $0.slot, type: $0.type, computed: $0.computed, labels: $0.labels) }
        rowPlan = RowPlan(collection)
        tableRowPlan = TableRowPlan(collection)
        let targets = collection.fields.map { field in catalog.flatMap { field.type.referencedCollection.flatMap($0.collection(named:)) } }
        self.targets = targets
        labelSlots = zip(collection.fields, targets).map { field, target in
            guard let slot = field.slot, let target else { return [:] }
            var slots: [Int: (reference: Int, names: Int)] = [:]
            for (index, targetField) in target.fields.enumerated() { if let names = targetField.slot { slots[index] = (slot, names) } }
            return slots
        }
        titleRenderers = targets.map { target in target.map { ItemRenderer(collection: $0, catalog: nil) } }
    }

    /// The title the row of `item` shows, without looking up references (a reference in the
    /// title shows the referenced id): what a section header, a reference cell or an embedded
    /// reference shows of it. A blank title shows the placeholder (`untitled(in:)`), as rows do.
    public func title(of item: Item, in context: RenderContext) -> String {
        let title = bareTitle(of: item, in: context)
        return Self.isBlank(title) ? untitled(in: context) : title
    }

    /// The title as the item's values make it, "" or blank when they make none: what the
    /// store's sort keys fold. A placeholder there would be found by a search for its words and
    /// would sort untitled items among the "U"s, differently in every language.
    public func bareTitle(of item: Item, in context: RenderContext) -> String {
        text(collection.row.title, of: item, references: .none, in: context) ?? ""
    }

    /// What `spec` shows of `item`: the field formatted, or the template filled (`Template.fill`); cut to its preview.
    public func text(_ spec: ValueSpec, of item: Item, references: ReferencedItems, in context: RenderContext) -> String? {
        let full: String?
        switch spec.source {
        case .field(let index): full = fieldText(index, of: item, references: references, in: context)
        case .template(let template): full = template.fill { fieldText($0, of: item, references: references, in: context) }
        }
        guard let preview = spec.preview else { return full }
        return full.flatMap { truncatedPreview($0, limit: preview) }
    }

    /// The field at `index` as rows show it (computed fields made from their spec); nil when null.
    public func fieldText(_ index: Int, of item: Item, references: ReferencedItems, in context: RenderContext) -> String? {
        guard plans.indices.contains(index) else { return nil }
        let plan = plans[index]
        if let computed = plan.computed { return text(computed, of: item, references: references, in: context) }
        guard let slot = plan.slot else { return nil }
        let value = item[slot: slot]
        switch value {
        case .text(let text) where plan.type.isPlainText:
            return text
        case .reference:
            return FieldFormatter(context: context).format(
                value, as: plan.type, referenceTitle: referenceTitle(value, field: index, references: references, in: context))
        case .numbers:
            return FieldFormatter(context: context).format(
                value, as: plan.type, names: plan.labels.flatMap { labelNames($0, item: item, references: references) })
        default:
            return FieldFormatter(context: context).format(value, as: plan.type)
        }
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
        field.labels.flatMap { labelNames($0, item: item, references: references) }
    }

    func labelNames(_ labels: LabelSource, item: Item, references: ReferencedItems) -> [NamedEntry]? {
        guard labelSlots.indices.contains(labels.reference), let slots = labelSlots[labels.reference][labels.names],
            let id = item[slot: slots.reference].reference
        else { return nil }
        return references[id]?[slot: slots.names].names ?? []
    }

    /// What a view shows of referenced items decides which references a page must look up.
    public enum View: Sendable {
        case rows, sections, table
    }

    /// The reference fields whose items `view` shows (their titles, or the names a numbers
    /// field is aligned with): a page of that view fetches those items and no others.
    public func referenceFields(shownIn view: View) -> [Int] {
        var specs: [ValueSpec] = []
        var fields: [Int] = []
        switch view {
        case .rows, .sections:
            let row = collection.row
            specs = [row.title] + [row.subtitle, row.trailing].compactMap { $0 }
            if view == .sections, let sections = collection.sections { fields.append(sections.field) }
        case .table:
            if let table = collection.table {
                specs = [table.compactTitle] + [table.compactSubtitle].compactMap { $0 }
                for column in table.columns {
                    switch column {
                    case .value(_, _, let value, _): specs.append(value)
                    case .percent, .days: break
                    case .forEach(let field): fields.append(field)
                    }
                }
            }
        }
        var seen = Set<Int>()
        var pending = specs.flatMap(\.fields) + fields
        var references: [Int] = []
        while let index = pending.popLast() {
            guard plans.indices.contains(index), seen.insert(index).inserted else { continue }
            let plan = plans[index]
            if let computed = plan.computed { pending += computed.fields }
            if let labels = plan.labels { pending.append(labels.reference) }
            if plan.type.referencedCollection != nil { references.append(index) }
        }
        return references.sorted()
    }

    /// The slot and type of the field at `index` (nil slot: computed or unknown).
    func plan(_ index: Int) -> (slot: Int?, type: FieldType)? {
        plans.indices.contains(index) ? (plans[index].slot, plans[index].type) : nil
    }

    /// The referenced collection of the reference field at `index`.
    public func target(ofField index: Int) -> CollectionDefinition? {
        targets.indices.contains(index) ? targets[index] : nil
    }
}
