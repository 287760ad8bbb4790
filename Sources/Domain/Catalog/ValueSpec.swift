/// What a row line, a table cell or a computed field shows: a field formatted by its type and
/// the request's locale, or a template of fields; optionally cut to a preview.
public struct ValueSpec: Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        /// A field of the collection (an index into its fields; it may be computed).
        case field(Int)
        case template(Template)
    }

    public let source: Source
    /// Cut to this many characters plus "…", trimmed, nil when blank (seed 000's previews).
    public let preview: Int?

    public init(_ source: Source, preview: Int? = nil) {
        self.source = source
        self.preview = preview
    }

    public static func field(_ index: Int, preview: Int? = nil) -> ValueSpec { ValueSpec(.field(index), preview: preview) }

    /// The field it shows as is, when it is one field without a preview.
    public var plainField: Int? {
        if case .field(let index) = source, preview == nil { return index }
        return nil
    }

    /// Every field the value reads (for templates, each placeholder's).
    public var fields: [Int] {
        switch source {
        case .field(let index): [index]
        case .template(let template): template.fields
        }
    }
}

/// Text with `{field}` placeholders, each replaced by the field formatted for the locale:
/// `"{givenName} {familyName}"`, `"{timestampMilliseconds} ms"`. `{{` and `}}` are literal braces.
public struct Template: Sendable, Hashable {
    public enum Part: Sendable, Hashable {
        case literal(String)
        /// A field index; only stored fields may appear.
        case field(Int)
    }

    public let parts: [Part]
    /// The template as the definition wrote it.
    public let text: String

    public init(parts: [Part], text: String) {
        self.parts = parts
        self.text = text
    }

    public var fields: [Int] {
        parts.compactMap { part in
            if case .field(let index) = part { return index }
            return nil
        }
    }

    /// The parts of a template's text, with placeholder names unresolved; nil with the offset
    /// (in characters) of the first malformed brace.
    public static func split(_ text: String) -> Result<[RawPart], MalformedTemplate> {
        var parts: [RawPart] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "{" {
                if next < text.endIndex, text[next] == "{" {
                    literal.append("{")
                    index = text.index(after: next)
                    continue
                }
                guard let close = text[next...].firstIndex(of: "}") else {
                    return .failure(MalformedTemplate(offset: text.distance(from: text.startIndex, to: index), reason: "an unclosed {"))
                }
                let name = String(text[next..<close])
                guard !name.isEmpty, !name.contains("{") else {
                    return .failure(
                        MalformedTemplate(offset: text.distance(from: text.startIndex, to: index), reason: "an empty or nested placeholder"))
                }
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.placeholder(name))
                index = text.index(after: close)
            } else if character == "}" {
                guard next < text.endIndex, text[next] == "}" else {
                    return .failure(MalformedTemplate(offset: text.distance(from: text.startIndex, to: index), reason: "a } without its {"))
                }
                literal.append("}")
                index = text.index(after: next)
            } else {
                literal.append(character)
                index = next
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return .success(parts)
    }

    public enum RawPart: Sendable, Hashable {
        case literal(String)
        case placeholder(String)
    }

    public struct MalformedTemplate: Error, Sendable, Hashable {
        public var offset: Int
        public var reason: String
    }
}
