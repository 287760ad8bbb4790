import Domain

/// Which keys a field may have, by what it is: the table behind `unknown-key` and
/// `key-not-for-type` (REFERENCE.md, "Fields").
enum FieldKeys {
    static let common = ["label", "description"]
    static let stored = ["type", "required", "default", "readOnly"]
    static let template = ["template"]
    static let preview = ["preview", "length"]

    static func forType(_ name: String) -> [String] {
        switch name {
        case "text", "longText", "markdown", "email", "phone", "image": ["maxLength", "minLength", "pattern"]
        case "integer", "date", "dateTime": ["minimum", "maximum"]
        case "decimal": ["minimum", "maximum", "scale"]
        case "money": ["minimum", "maximum", "currencies"]
        case "enum": ["values"]
        case "reference": ["to", "embed", "link", "onDelete"]
        case "numbers": ["minItems", "maxItems", "fractionDigits", "labels"]
        case "names": ["idPrefix", "minItems", "maxItems", "maxLength", "minLength"]
        default: []
        }
    }

    /// Every key any field may have, in the order REFERENCE.md lists them.
    static let all: [String] = {
        var keys = ["type"] + common + ["required", "default", "readOnly"]
        for type in FieldType.names {
            for key in forType(type) where !keys.contains(key) { keys.append(key) }
        }
        return keys + template + preview
    }()

    /// The keys of a stored field of this type; for a broken type, every stored key.
    static func storedKeys(type: String?) -> [String] {
        guard let type, FieldType.names.contains(type) else { return all.filter { !template.contains($0) && !preview.contains($0) } }
        return ["type"] + common + ["required", "default", "readOnly"] + forType(type)
    }
}
