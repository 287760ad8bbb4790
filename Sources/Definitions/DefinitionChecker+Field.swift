import Domain
import Foundation
import Yams

/// The first pass over one field: which kind it is, its keys, type and rules, and its default.
extension DefinitionChecker {
    mutating func readField(_ entry: Entry, collection: String) -> FieldDraft {
        var field = FieldDraft(
            name: entry.key, keyNode: entry.keyNode, collection: collection, label: LocalizedText(FieldNameWords.label(for: entry.key)))
        guard let entries = entries(entry.value, field.what) else {
            field.broken = true
            return field
        }
        let object = Object(node: entry.value, entries: entries)
        if object.has("template") || object.has("preview") {
            readComputed(object, into: &field)
        } else {
            readStored(object, into: &field)
        }
        if let node = object.value("label"), let label = text(node, "The label of \(field.what)") { field.label = label }
        if let node = object.value("description") { field.description = string(node, "The description of \(field.what)") }
        return field
    }

    /// Reports keys no field has (with the keys this one may have) and keys that belong to
    /// another kind of field.
    private mutating func checkKeys(_ object: Object, allowed: [String], kind: String, what: String) {
        for entry in object.entries {
            if !FieldKeys.all.contains(entry.key) {
                reportUnknownKey(entry, in: what, known: allowed)
            } else if !allowed.contains(entry.key) {
                report(
                    "key-not-for-type",
                    "`\(entry.key)` does not apply to \(kind) (\(what)); it takes: \(allowed.joined(separator: ", ")).", at: entry.keyNode)
            }
        }
    }

    private mutating func readComputed(_ object: Object, into field: inout FieldDraft) {
        let what = field.what
        if let template = object.value("template") {
            checkKeys(object, allowed: FieldKeys.template + FieldKeys.common, kind: "a template field", what: what)
            if let text = string(template, "The template of \(what)") { field.computed = .template(text, template) }
        } else if let preview = object.value("preview") {
            checkKeys(object, allowed: FieldKeys.preview + FieldKeys.common, kind: "a preview field", what: what)
            let source = string(preview, "The preview of \(what)")
            var length: Int?
            if let node = object.value("length") {
                length = count(node, "The length of \(what)", in: 1...1_000_000)
            } else {
                report("missing-key", "\(what) lacks `length`: how many characters its preview keeps (length: 48).", at: object.node)
            }
            if let source, let length { field.computed = .preview(field: source, node: preview, length: length) }
        }
        if field.computed == nil { field.broken = true }
    }

    private mutating func readStored(_ object: Object, into field: inout FieldDraft) {
        let what = field.what
        var typeName: String?
        if let node = object.value("type"), let name = string(node, "The type of \(what)") {
            if FieldType.names.contains(name) {
                typeName = name
            } else {
                let hint = Self.suggestion(for: name, among: FieldType.names).map { " Did you mean `\($0)`?" } ?? ""
                report(
                    "unknown-type",
                    "\(what) has the unknown type `\(Self.shortened(name))`.\(hint) Types: \(FieldType.names.joined(separator: ", ")).",
                    at: node)
            }
        } else if !object.has("type") {
            report(
                "missing-key",
                "\(what) lacks `type` (or `template` / `preview` for a computed field). Types: "
                    + FieldType.names.joined(separator: ", ") + ".", at: object.node)
        }
        checkKeys(object, allowed: FieldKeys.storedKeys(type: typeName), kind: typeName.map { "\($0) fields" } ?? "stored fields", what: what)
        if let node = object.value("required") { field.rules.required = boolean(node, "`required` of \(what)") ?? false }
        if let node = object.value("readOnly") { field.readOnly = boolean(node, "`readOnly` of \(what)") ?? false }
        guard let typeName else {
            field.broken = true
            return
        }
        field.type = readType(typeName, object, &field)
        if field.type == nil { field.broken = true }
        readRules(object, &field)
        if let type = field.type, let node = object.value("default") {
            field.defaultValue = readDefault(node, type: type, rules: field.rules, what: what)
        }
    }

    /// The type, with what its own keys add (scale, values, target…); nil when one of them is broken.
    private mutating func readType(_ name: String, _ object: Object, _ field: inout FieldDraft) -> FieldType? {
        let what = field.what
        switch name {
        case "text": return .text
        case "longText": return .longText
        case "markdown": return .markdown
        case "email": return .email
        case "phone": return .phone
        case "image": return .image
        case "money": return .money
        case "integer": return .integer
        case "boolean": return .boolean
        case "date": return .date
        case "dateTime": return .dateTime
        case "decimal":
            guard let node = object.value("scale") else { return .decimal(scale: 2) }
            return count(node, "The scale of \(what)", in: 0...6).map { .decimal(scale: $0) }
        case "numbers":
            if let node = object.value("labels") { field.labels = readLabels(node, what: what) }
            guard let node = object.value("fractionDigits") else { return .numbers(fractionDigits: 2) }
            return count(node, "`fractionDigits` of \(what)", in: 0...6).map { .numbers(fractionDigits: $0) }
        case "enum":
            guard let node = object.value("values") else {
                return refuse("missing-key", "\(what) lacks `values`: the enum's values (values: [open, closed]).", at: object.node)
            }
            return readEnumValues(node, what: what).map { .enumeration($0) }
        case "reference":
            return readReference(object, &field)
        case "names":
            guard let node = object.value("idPrefix") else {
                return refuse("missing-key", "\(what) lacks `idPrefix`: three lowercase letters for its names' ids (idPrefix: chn).", at: object.node)
            }
            field.idPrefixNode = node
            return idPrefix(node, "`idPrefix` of \(what)").map { .names(kind: $0) }
        default:
            return nil
        }
    }

    mutating func idPrefix(_ node: Node, _ what: String) -> EntityKind? {
        guard let text = string(node, what) else { return nil }
        guard let kind = EntityKind(prefix: text) else {
            return refuse(
                "bad-id-prefix", "\(what) \"\(Self.shortened(text))\" must be exactly three lowercase ASCII letters (prd, per, chn).", at: node)
        }
        return kind
    }

    private mutating func readReference(_ object: Object, _ field: inout FieldDraft) -> FieldType? {
        let what = field.what
        var options = ReferenceOptions()
        if let node = object.value("embed") {
            options.embed = referenceKey(node, "embed", of: field, meaning: "the key the detail embeds the referenced item under")
            field.embedNode = node
        }
        if let node = object.value("link") {
            options.link = referenceKey(node, "link", of: field, meaning: "the name of the detail's link to the referenced item")
        }
        if let node = object.value("onDelete"), let text = string(node, "`onDelete` of \(what)") {
            field.onDeleteNode = node
            if let choice = ReferenceOptions.OnDelete(rawValue: text) {
                options.onDelete = choice
                if choice == .setNull, field.rules.required {
                    report(
                        "set-null-on-required",
                        "`onDelete: setNull` of \(what) would leave a required reference empty: make the field optional, or write "
                            + "restrict or cascade.", at: node)
                }
            } else {
                report("bad-choice", "`onDelete` of \(what) must be restrict, cascade or setNull, not \"\(Self.shortened(text))\".", at: node)
            }
        }
        field.reference = options
        guard let node = object.value("to") else {
            return refuse("missing-key", "\(what) lacks `to`: the collection it refers to.", at: object.node)
        }
        field.toNode = node
        return identifier(node, "`to` of \(what)").map { .reference(collection: $0) }
    }

    /// The name `embed` or `link` gives. `embed: true` reads as a switch, but YAML's `true` is
    /// also a valid name: the detail grew a key `"true"`. A boolean is refused with the name to
    /// write instead (the field's name without its `ID`), rather than read as a switch that
    /// would pick a key the author never sees written down.
    private mutating func referenceKey(_ node: Node, _ key: String, of field: FieldDraft, meaning: String) -> String? {
        guard case .scalar(let scalar) = node, node.tagName == .bool else { return identifier(node, "`\(key)` of \(field.what)") }
        let name = Self.referenceKeySuggestion(for: field.name)
        let off = !["true", "yes", "on"].contains(scalar.string.lowercased())
        return refuse(
            "\(key)-needs-name",
            "`\(key)` of \(field.what) is \(meaning), not a switch: \(off ? "leave it out for none, or " : "")write `\(key): \(name)` "
                + "(any name that is not one of the collection's fields).", at: node)
    }

    /// The name a reference field's embed or link most likely wants: `assigneeID` → `assignee`.
    static func referenceKeySuggestion(for name: String) -> String {
        for suffix in ["ID", "Id"] where name.hasSuffix(suffix) && name.count > suffix.count {
            return String(name.dropLast(suffix.count))
        }
        return name + "Item"
    }

    private mutating func readEnumValues(_ node: Node, what: String) -> [EnumCase]? {
        var cases: [EnumCase] = []
        var broken = false
        var pairs: [(node: Node, value: String?, label: LocalizedText?)] = []
        switch node {
        case .sequence(let sequence):
            for element in sequence {
                let value = string(element, "A value of \(what)")
                pairs.append((element, value, value.map { LocalizedText($0) }))
            }
        case .mapping:
            for entry in entries(node, "The values of \(what)") ?? [] {
                pairs.append((entry.keyNode, entry.key, text(entry.value, "The label of value `\(entry.key)` of \(what)")))
            }
        default:
            return refuseKind(node, "`values` of \(what)", expected: "a list of values or a mapping of value to label")
        }
        if pairs.isEmpty {
            return refuse("empty-enum", "`values` of \(what) is empty: list at least one value.", at: node)
        }
        var seen = Set<String>()
        for pair in pairs {
            guard let value = pair.value, let label = pair.label else {
                broken = true
                continue
            }
            if value.isEmpty || value.contains(",") || value != value.trimmingCharacters(in: .whitespacesAndNewlines) {
                report(
                    "bad-enum-value",
                    "The value \"\(Self.shortened(value))\" of \(what) must be non-empty, without commas "
                        + "(filters list values separated by commas) and without surrounding spaces.", at: pair.node)
                broken = true
            } else if !seen.insert(value).inserted {
                report(
                    "duplicate-enum-value", "The value `\(Self.shortened(value))` appears twice in \(what.lowercasedFirst); keep one.", at: pair.node)
                broken = true
            }
            cases.append(EnumCase(value: value, label: label))
        }
        return broken ? nil : cases
    }

    private mutating func readLabels(_ node: Node, what: String) -> FieldDraft.LabelsDraft? {
        let place = "`labels` of \(what)"
        guard let object = object(node, place, known: ["from", "labelKey", "valueKey"], required: ["from"]) else { return nil }
        let labelKey = object.value("labelKey").map { identifier($0, "`labelKey` of \(what)") } ?? "label"
        let valueKey = object.value("valueKey").map { identifier($0, "`valueKey` of \(what)") } ?? "value"
        guard let fromNode = object.value("from"), let from = string(fromNode, "`from` of \(place)"), let labelKey, let valueKey else {
            return nil
        }
        for (key, node) in [(labelKey, object.value("labelKey")), (valueKey, object.value("valueKey"))] where ["name", "formatted"].contains(key) {
            return refuse(
                "bad-labels", "\(place) cannot use `\(key)` as a key: each entry already has `name` and `formatted`.", at: node ?? object.node)
        }
        if labelKey == valueKey {
            return refuse(
                "bad-labels", "\(place) uses `\(labelKey)` for both labelKey and valueKey; give them different names.",
                at: object.value("valueKey") ?? object.node)
        }
        return FieldDraft.LabelsDraft(from: from, fromNode: fromNode, labelKey: labelKey, valueKey: valueKey)
    }
}
