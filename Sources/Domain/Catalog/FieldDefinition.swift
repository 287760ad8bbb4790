/// One field of a collection, as its definition declares it.
///
/// A field is *stored* (it has a ``slot`` in ``Item/values``) or *computed* (``computed`` says
/// how: a template of other fields, or a preview of one). Computed fields are read-only, never
/// stored, and appear in the detail at their declared position.
public struct FieldDefinition: Sendable, Hashable {
    public let name: String
    public let label: LocalizedText
    /// For the OpenAPI document; nil when the definition gives none.
    public let description: String?
    public let type: FieldType
    public let rules: FieldRules
    /// The value a create takes when the field is absent; nil for none.
    public let defaultValue: FieldValue?
    /// Clients never write it: a computed field, or one the server keeps (`readOnly: true`).
    public let readOnly: Bool
    /// The position in ``Item/values``; nil for a computed field.
    public let slot: Int?
    /// How a computed field's text is made; nil for a stored field.
    public let computed: ValueSpec?
    /// For a reference: how the detail shows the referenced item.
    public let reference: ReferenceOptions?
    /// For numbers: the names they are aligned with, one number per name.
    public let labels: LabelSource?

    public init(
        name: String, label: LocalizedText, description: String? = nil, type: FieldType, rules: FieldRules = FieldRules(),
        defaultValue: FieldValue? = nil, readOnly: Bool = false, slot: Int?, computed: ValueSpec? = nil,
        reference: ReferenceOptions? = nil, labels: LabelSource? = nil
    ) {
        self.name = name
        self.label = label
        self.description = description
        self.type = type
        self.rules = rules
        self.defaultValue = defaultValue
        self.readOnly = readOnly || computed != nil
        self.slot = computed == nil ? slot : nil
        self.computed = computed
        self.reference = reference
        self.labels = labels
    }

    public var isStored: Bool { slot != nil }
}

/// How the detail shows a reference, and what deleting the referenced item does.
public struct ReferenceOptions: Sendable, Hashable {
    public enum OnDelete: String, Sendable, Hashable {
        /// The referenced item cannot be deleted while referenced (409).
        case restrict
        /// Deleting the referenced item deletes the referring items too (a track's samples).
        case cascade
        /// Deleting the referenced item empties the reference of the referring items (an optional
        /// reference only): an outline's children become roots.
        case setNull
    }

    /// The detail embeds `{id, <title>, detail}` of the referenced item under this key.
    public var embed: String?
    /// The detail's `links` name the referenced item's detail under this key.
    public var link: String?
    public var onDelete: OnDelete

    public init(embed: String? = nil, link: String? = nil, onDelete: OnDelete = .restrict) {
        self.embed = embed
        self.link = link
        self.onDelete = onDelete
    }
}

/// The names a numbers field is aligned with: `numbers[i]` belongs to `names[i]` of the item
/// that the reference field `reference` points to (a sample's levels and its track's channels).
public struct LabelSource: Sendable, Hashable {
    /// The reference field of this collection (a field index).
    public var reference: Int
    /// The names field of the referenced collection (a field index there).
    public var names: Int
    /// The keys of each entry in the detail: `{<labelKey>: name id, name, <valueKey>: number, formatted}`.
    public var labelKey: String
    public var valueKey: String

    public init(reference: Int, names: Int, labelKey: String = "label", valueKey: String = "value") {
        self.reference = reference
        self.names = names
        self.labelKey = labelKey
        self.valueKey = valueKey
    }
}
