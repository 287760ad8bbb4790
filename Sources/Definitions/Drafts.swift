import Domain
import Yams

/// A collection as the first pass reads it: its own keys and fields checked, the names it uses
/// (references, templates, sorts…) not yet resolved, since they may point to collections read
/// later.
struct CollectionDraft {
    let name: String
    let keyNode: Node
    /// Nil when the collection is not a mapping (already reported).
    let body: Object?
    var kind: EntityKind?
    var title: LocalizedText?
    var fields: [FieldDraft] = []
    /// Exact field names to indexes; the first of a repeated name wins.
    var fieldIndex: [String: Int] = [:]
    var writable = true
    var readsNeedKey = false
    /// `count`: how its pages count their rows when a request does not say.
    var defaultCount = ListCount.none

    var what: String { "collection `\(name)`" }

    /// Whether it declares a parent (children may not have children).
    var hasParent: Bool { body?.has("parent") ?? false }

    func field(named name: String) -> (index: Int, field: FieldDraft)? {
        fieldIndex[name].map { ($0, fields[$0]) }
    }
}

/// A field as the first pass reads it: type, rules and default checked; its template, preview,
/// `labels` and reference target resolved in the second pass.
struct FieldDraft {
    let name: String
    let keyNode: Node
    let collection: String
    var label: LocalizedText
    var description: String?
    /// Nil for a computed field, and for a stored one whose type is broken (already reported).
    var type: FieldType?
    var rules = FieldRules()
    var defaultValue: FieldValue?
    var readOnly = false
    var computed: Computed?
    var reference: ReferenceOptions?
    /// The reference's `to`, `embed`, `link` and `onDelete` values (for errors in the second pass).
    var toNode: Node?
    var embedNode: Node?
    var onDeleteNode: Node?
    /// A names field's `idPrefix` value.
    var idPrefixNode: Node?
    var labels: LabelsDraft?
    var slot: Int?
    /// Reported broken: later checks that read it stay quiet.
    var broken = false

    /// How a computed field is made, unresolved.
    enum Computed {
        case template(String, Node)
        case preview(field: String, node: Node, length: Int)
    }

    /// `labels: {from: reference.names, labelKey, valueKey}`, unresolved.
    struct LabelsDraft {
        var from: String
        var fromNode: Node
        var labelKey: String
        var valueKey: String
    }

    var what: String { "field `\(collection).\(name)`" }
    var isStored: Bool { computed == nil }
}
