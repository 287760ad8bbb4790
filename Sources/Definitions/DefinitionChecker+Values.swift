import Domain
import Yams

/// Values (row lines, compact lines, search values, computed fields) and templates, resolved
/// to field indexes of one collection.
extension DefinitionChecker {
    /// The index of the field called `name`, or a report with `code` naming the fields there are.
    mutating func field(_ name: String, at node: Node, in scope: CollectionScope, code: String, _ what: String) -> Int? {
        if let index = scope.index(of: name) { return index }
        let names = scope.fields.map(\.name)
        let hint = Self.suggestion(for: name, among: names).map { " Did you mean `\($0)`?" } ?? ""
        return refuse(
            code,
            "\(what) names `\(Self.shortened(name))`, which is not a field of \(scope.draft.what).\(hint) Fields: "
                + names.joined(separator: ", ") + ".", at: node)
    }

    /// A value: a field name, a template (any string with `{`), or `{field, preview}` /
    /// `{template, preview}`.
    mutating func value(_ node: Node, _ what: String, in scope: CollectionScope) -> ValueSpec? {
        if case .scalar = node {
            guard let text = string(node, what) else { return nil }
            if text.contains("{") { return template(text, at: node, what, in: scope).map { ValueSpec(.template($0)) } }
            return field(text, at: node, in: scope, code: "unknown-field", what).map { ValueSpec.field($0) }
        }
        guard case .mapping = node else {
            return refuseKind(node, what, expected: "a field name, a template, or {field, preview} / {template, preview}")
        }
        guard let object = object(node, what, known: ["field", "template", "preview"]) else { return nil }
        let preview = object.value("preview").map { count($0, "The preview length of \(what.lowercasedFirst)", in: 1...1_000_000) }
        if case .some(nil) = preview { return nil }
        switch (object.value("field"), object.value("template")) {
        case (let fieldNode?, nil):
            guard let name = string(fieldNode, "`field` of \(what.lowercasedFirst)"),
                let index = field(name, at: fieldNode, in: scope, code: "unknown-field", what)
            else { return nil }
            return ValueSpec(.field(index), preview: preview ?? nil)
        case (nil, let templateNode?):
            guard let text = string(templateNode, "`template` of \(what.lowercasedFirst)"),
                let template = template(text, at: templateNode, what, in: scope)
            else { return nil }
            return ValueSpec(.template(template), preview: preview ?? nil)
        case (_?, let templateNode?):
            report("conflicting-keys", "\(what) has both `field` and `template`; give one.", at: templateNode)
        case (nil, nil):
            report("missing-key", "\(what) lacks `field` or `template`.", at: node)
        }
        return nil
    }

    /// A template whose placeholders name stored fields of the collection.
    mutating func template(_ text: String, at node: Node, _ what: String, in scope: CollectionScope) -> Template? {
        let raw: [Template.RawPart]
        switch Template.split(text) {
        case .success(let parts): raw = parts
        case .failure(let malformed):
            return refuse(
                "bad-template",
                "The template \"\(Self.shortened(text))\" of \(what.lowercasedFirst) has \(malformed.reason) at character "
                    + "\(malformed.offset + 1); write {{ and }} for literal braces.", at: node)
        }
        var parts: [Template.Part] = []
        var broken = false
        for part in raw {
            switch part {
            case .literal(let literal):
                parts.append(.literal(literal))
            case .placeholder(let name):
                guard let index = field(name, at: node, in: scope, code: "template-unknown-field", "The template of \(what.lowercasedFirst)")
                else {
                    broken = true
                    continue
                }
                guard scope.fields[index].isStored else {
                    report(
                        "template-computed-field",
                        "The template of \(what.lowercasedFirst) uses `{\(name)}`, a computed field; templates use stored fields only.",
                        at: node)
                    broken = true
                    continue
                }
                parts.append(.field(index))
            }
        }
        return broken ? nil : Template(parts: parts, text: text)
    }

    /// The spec of a computed field: a template of stored fields, or a preview of a stored
    /// text, long text or Markdown field.
    mutating func computedSpec(_ field: FieldDraft, in scope: CollectionScope) -> ValueSpec? {
        switch field.computed {
        case .template(let text, let node)?:
            return template(text, at: node, field.what, in: scope).map { ValueSpec(.template($0)) }
        case .preview(let name, let node, let length)?:
            guard let index = self.field(name, at: node, in: scope, code: "preview-unknown-field", "The preview of \(field.what)") else {
                return nil
            }
            let source = scope.fields[index]
            guard source.isStored else {
                return refuse(
                    "preview-not-text", "The preview of \(field.what) reads `\(name)`, a computed field; preview a stored text field.", at: node)
            }
            guard let type = source.type else { return nil }
            guard [.text, .longText, .markdown].contains(type) else {
                return refuse(
                    "preview-not-text",
                    "The preview of \(field.what) reads `\(name)`, \(type.name.withIndefiniteArticle) field; previews are of text, longText or markdown fields.",
                    at: node)
            }
            return ValueSpec(.field(index), preview: length)
        case nil:
            return nil
        }
    }
}
