/// What each part of a collection's list row is made from, decided once per collection: a
/// stored text written as it is, a stored value formatted, a template of those, or — for
/// anything more (previews, reference fields, numbers and names) — the whole item through
/// `ItemRenderer.text`.
///
/// All but the last let a page write its rows straight from the store's row, without an
/// `Item` (issue #16); the plan never changes what a row shows, only how it is read: every part
/// answers what `ItemRenderer.text` answers for the whole item.
public struct RowPlan: Sendable, Equatable {
    public enum Part: Sendable, Equatable {
        /// Nothing (no subtitle, no image).
        case absent
        /// The same text on every row (an image symbol).
        case constant(String)
        /// A stored slot's text as it is (plain text types; null shows nothing).
        case text(slot: Int)
        /// A stored slot's value through `FieldFormatter` (never a reference, nor numbers aligned
        /// with names: those need other items).
        case formatted(slot: Int, type: FieldType)
        /// A template of stored values, filled by `Template.fill`'s rule: a placeholder with no
        /// value drops with its separator; with none left the part is absent.
        case template([Piece])
        /// `ItemRenderer.text(spec)` of the whole item.
        case item(ValueSpec)
        /// `ItemRenderer.image(of:)` of the whole item (an image field that does not hold text).
        case itemImage
    }

    /// One piece of a template: its literal text, or a placeholder read as a part is.
    public enum Piece: Sendable, Equatable {
        case literal(String)
        case text(slot: Int)
        case formatted(slot: Int, type: FieldType)
    }

    public let title: Part
    public let subtitle: Part
    public let trailing: Part
    public let image: Part

    /// Whether any part needs the whole item.
    public let needsItem: Bool

    /// The stored slots the parts read, ascending; nil when a part needs the whole item (every
    /// slot): what a page of these rows selects (`CatalogQuery.reads`).
    public let slots: [Int]?

    /// The stored slots `parts` read, ascending (a part that needs the whole item reads none of its own).
    static func slots(of parts: [Part]) -> [Int] {
        var slots = Set<Int>()
        for part in parts {
            switch part {
            case .text(let slot), .formatted(let slot, _): slots.insert(slot)
            case .template(let pieces):
                for piece in pieces {
                    switch piece {
                    case .text(let slot), .formatted(let slot, _): slots.insert(slot)
                    case .literal: break
                    }
                }
            case .absent, .constant, .item, .itemImage: break
            }
        }
        return slots.sorted()
    }

    static func needItem(_ parts: [Part]) -> Bool {
        parts.contains { part in
            switch part {
            case .item, .itemImage: true
            default: false
            }
        }
    }

    init(_ collection: CollectionDefinition) {
        let row = collection.row
        title = Self.part(row.title, collection)
        subtitle = row.subtitle.map { Self.part($0, collection) } ?? .absent
        trailing = row.trailing.map { Self.part($0, collection) } ?? .absent
        switch row.image {
        case .none: image = .absent
        case .symbol(let name): image = .constant(name)
        case .field(let index):
            if collection.fields.indices.contains(index), let slot = collection.fields[index].slot {
                image = collection.fields[index].type.isPlainText ? .text(slot: slot) : .itemImage
            } else {
                image = .absent
            }
        }
        needsItem = Self.needItem([title, subtitle, trailing, image])
        slots = needsItem ? nil : Self.slots(of: [title, subtitle, trailing, image])
    }

    static func part(_ spec: ValueSpec, _ collection: CollectionDefinition) -> Part {
        guard spec.preview == nil else { return .item(spec) }
        switch spec.source {
        case .template(let template): return self.template(template, collection).map(Part.template) ?? .item(spec)
        case .field(let index):
            guard collection.fields.indices.contains(index) else { return .item(spec) }
            let field = collection.fields[index]
            // A computed field shows its spec, which may itself be a template of stored values.
            if let computed = field.computed {
                guard computed.preview == nil, case .template(let template) = computed.source else { return .item(spec) }
                return self.template(template, collection).map(Part.template) ?? .item(spec)
            }
            switch stored(index, collection) {
            case .text(let slot): return .text(slot: slot)
            case .formatted(let slot, let type): return .formatted(slot: slot, type: type)
            default: return .item(spec)
            }
        }
    }

    /// The template's pieces, when every placeholder is a stored value read as it is.
    static func template(_ template: Template, _ collection: CollectionDefinition) -> [Piece]? {
        var pieces: [Piece] = []
        for part in template.parts {
            switch part {
            case .literal(let literal): pieces.append(.literal(literal))
            case .field(let index):
                guard let piece = stored(index, collection) else { return nil }
                pieces.append(piece)
            }
        }
        return pieces
    }

    /// How a stored field shows without other items: as it is, or formatted (nil: it needs more).
    static func stored(_ index: Int, _ collection: CollectionDefinition) -> Piece? {
        guard collection.fields.indices.contains(index) else { return nil }
        let field = collection.fields[index]
        guard field.computed == nil, let slot = field.slot else { return nil }
        if field.type.isPlainText { return .text(slot: slot) }
        switch field.type {
        case .reference, .numbers, .names: return nil
        default: return .formatted(slot: slot, type: field.type)
        }
    }
}
