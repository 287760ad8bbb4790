/// Where an item falls when its list is cut into sections, and what search finds it by.
extension ItemRenderer {
    /// A section's identity and header. By a reference: the referenced item's id, headed by its
    /// title, with the id to link to; by an enum: the value, headed by its label. Items without
    /// a value share the section with the empty id, headed "None" in the locale.
    public struct SectionHeading: Sendable, Hashable {
        public var id: String
        public var header: String
        /// The referenced item the section stands for (its detail is the section's link).
        public var item: EntityID?

        public init(id: String, header: String, item: EntityID? = nil) {
            self.id = id
            self.header = header
            self.item = item
        }
    }

    /// What decides the section of `item`: the value of the field it is sectioned by. Equal keys,
    /// equal sections, so a page asks for a section's heading only when the key changes.
    public func sectionKey(of item: Item) -> FieldValue? {
        guard let sections = collection.sections, let slot = plan(sections.field)?.slot else { return nil }
        return item[slot: slot]
    }

    /// The section of `item` under the collection's `sections`; nil when it declares none.
    public func section(of item: Item, references: ReferencedItems, in context: RenderContext) -> SectionHeading? {
        sectionKey(of: item).flatMap { section(forKey: $0, references: references, in: context) }
    }

    /// The section of the items whose `sectionKey` is `key` (a page written from the store's
    /// rows reads only that value); nil when the collection declares no sections.
    public func section(forKey key: FieldValue, references: ReferencedItems, in context: RenderContext) -> SectionHeading? {
        guard let sections = collection.sections, let plan = plan(sections.field), plan.slot != nil else { return nil }
        switch key {
        case .reference(let id):
            let header = referenceTitle(.reference(id), field: sections.field, references: references, in: context) ?? id.rawValue
            return SectionHeading(id: id.rawValue, header: header, item: id)
        case .text(let value):
            let label = plan.type.enumCases.first { $0.value == value }?.label[context.locale] ?? value
            return SectionHeading(id: value, header: label)
        default:
            return SectionHeading(id: "", header: Self.noneLabel(context.locale))
        }
    }

    /// The slot of the field the collection is sectioned by.
    public var sectionSlot: Int? {
        collection.sections.flatMap { plan($0.field)?.slot }
    }

    /// The texts `q=` searches in, as rows show them in en-US (numbers and money in one fixed
    /// locale, so the index does not depend on who wrote the item): one per text of the
    /// collection's `search`, in its order, nil when blank. A blank title leaves the subtitle
    /// second, so the store's title key is always the title's (an order by the title field can
    /// then stand for an order by the title key).
    public func searchTexts(of item: Item, references: ReferencedItems) -> [String?] {
        let context = RenderContext(locale: .enUS)
        return collection.search.map { spec in
            text(spec, of: item, references: references, in: context).flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    static func noneLabel(_ locale: RenderLocale) -> String {
        switch locale.language {
        case "de": "Keine Angabe"
        case "fr": "Non renseigné"
        case "ja": "未設定"
        default: "None"
        }
    }
}
