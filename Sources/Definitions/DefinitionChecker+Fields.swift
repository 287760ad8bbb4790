import Domain
import Yams

/// The second pass over fields: computed specs, reference targets, `labels`, `embed` names,
/// and read-only fields that need a default; then each field's definition.
extension DefinitionChecker {
    mutating func resolveFields(_ scope: inout CollectionScope) -> [FieldDefinition]? {
        var broken = false
        for (index, field) in scope.fields.enumerated() where !field.isStored {
            if let spec = computedSpec(field, in: scope) { scope.computed[index] = spec } else { broken = true }
        }
        var definitions: [FieldDefinition] = []
        var embeds: [String: String] = [:]
        for (index, field) in scope.fields.enumerated() {
            if field.broken { broken = true }
            var labels: LabelSource?
            if let target = field.type?.referencedCollection, scope.collections[target] == nil {
                let names = scope.collections.keys.sorted()
                let hint = Self.suggestion(for: target, among: names).map { " Did you mean `\($0)`?" } ?? ""
                report(
                    "unknown-collection",
                    "\(field.what) refers to `\(target)`, which is not a collection.\(hint) Collections: "
                        + names.joined(separator: ", ") + ".", at: field.toNode ?? field.keyNode)
                broken = true
            }
            if let draft = field.labels {
                labels = resolveLabels(draft, of: field, in: scope)
                if labels == nil { broken = true }
            }
            if let embed = field.reference?.embed, let node = field.embedNode {
                if let other = scope.fields.first(where: { $0.name == embed }) {
                    report(
                        "embed-clashes-with-field",
                        "`embed: \(embed)` of \(field.what) would put the embedded item under the key of the field `\(other.name)`; pick another name.",
                        at: node)
                    broken = true
                } else if let earlier = embeds[embed] {
                    report("embed-clashes-with-field", "`embed: \(embed)` of \(field.what) is already the embed key of `\(earlier)`.", at: node)
                    broken = true
                } else {
                    embeds[embed] = field.name
                }
            }
            if field.isStored, field.readOnly, field.rules.required, field.defaultValue == nil, scope.draft.writable, !field.broken {
                report(
                    "readonly-required-without-default",
                    "\(field.what) is required and readOnly, so clients can never set it: give it a `default`, or make the collection "
                        + "`writable: false`.", at: field.keyNode)
                broken = true
            }
            guard let type = field.type ?? (field.isStored ? nil : .text) else { continue }
            definitions.append(
                FieldDefinition(
                    name: field.name, label: field.label, description: field.description, type: type, rules: field.rules,
                    defaultValue: field.defaultValue, readOnly: field.readOnly, slot: field.slot, computed: scope.computed[index],
                    reference: field.reference, labels: labels))
        }
        return broken || definitions.count != scope.fields.count ? nil : definitions
    }

    /// `from: reference.names`: a reference field of this collection, and a names field of the
    /// collection it refers to.
    private mutating func resolveLabels(_ labels: FieldDraft.LabelsDraft, of field: FieldDraft, in scope: CollectionScope) -> LabelSource? {
        let parts = labels.from.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let what = "`labels.from` of \(field.what)"
        guard parts.count == 2 else {
            return refuse(
                "bad-labels-from", "\(what) must be `referenceField.namesField` (trackID.channels), not \"\(Self.shortened(labels.from))\".",
                at: labels.fromNode)
        }
        guard let reference = scope.index(of: parts[0]) else {
            return refuse(
                "bad-labels-from", "\(what) names `\(Self.shortened(parts[0]))`, which is not a field of \(scope.draft.what).", at: labels.fromNode)
        }
        guard let targetName = scope.fields[reference].type?.referencedCollection else {
            return refuse("bad-labels-from", "\(what) names `\(parts[0])`, which is not a reference field.", at: labels.fromNode)
        }
        guard let target = scope.collections[targetName] else { return nil }
        guard let names = target.field(named: parts[1]), case .names? = names.field.type else {
            return refuse(
                "bad-labels-from", "\(what) names `\(Self.shortened(parts[1]))`, which is not a names field of \(target.what).",
                at: labels.fromNode)
        }
        return LabelSource(reference: reference, names: names.index, labelKey: labels.labelKey, valueKey: labels.valueKey)
    }

    /// `parent: field`: a required reference of this collection to a top-level collection
    /// other than itself. Its `onDelete` becomes `cascade`: children go with their parent.
    mutating func resolveParent(_ node: Node, in scope: CollectionScope) -> ParentDefinition? {
        let what = "`parent` of \(scope.draft.what)"
        guard let name = string(node, what), let index = field(name, at: node, in: scope, code: "bad-parent", what) else { return nil }
        let field = scope.fields[index]
        guard let target = field.type?.referencedCollection else {
            if field.type != nil || !field.isStored {
                report("bad-parent", "\(what) names `\(name)`, which is not a reference field.", at: node)
            }
            return nil
        }
        guard field.rules.required else {
            return refuse("bad-parent", "\(what) names `\(name)`, which must be `required: true`: every child has a parent.", at: node)
        }
        if target == scope.draft.name {
            return refuse(
                "parent-self",
                "\(what) refers to the collection itself; a parent is another collection. For an outline of one collection, make "
                    + "`\(name)` optional and write `tree: {parent: \(name)}`.", at: node)
        }
        if let parent = scope.collections[target], parent.hasParent {
            return refuse(
                "nested-parent", "\(what) is `\(target)`, which has a parent itself; only top-level collections can be parents.", at: node)
        }
        if let onDelete = field.onDeleteNode, field.reference?.onDelete != .cascade {
            return refuse(
                "bad-parent",
                "`onDelete: \(field.reference?.onDelete.rawValue ?? "restrict")` of \(field.what) contradicts \(what): children are deleted with their parent.",
                at: onDelete)
        }
        return ParentDefinition(collection: target, field: index)
    }

    /// The fields with the parent reference's `onDelete` set to `cascade`.
    static func cascading(_ fields: [FieldDefinition], parent: ParentDefinition) -> [FieldDefinition] {
        fields.enumerated().map { index, field in
            guard index == parent.field else { return field }
            var options = field.reference ?? ReferenceOptions()
            options.onDelete = .cascade
            return FieldDefinition(
                name: field.name, label: field.label, description: field.description, type: field.type, rules: field.rules,
                defaultValue: field.defaultValue, readOnly: field.readOnly, slot: field.slot, computed: field.computed, reference: options,
                labels: field.labels)
        }
    }
}
