/// Block-style YAML, two spaces per level, the layout `scripts/openapi/generate.py` wrote: every
/// string double-quoted with JSON's escapes (so no value can turn into a number, a boolean or a
/// null by accident), keys plain when they are identifiers, empty maps and lists as `{}` and `[]`.
extension YAMLNode {
    /// The node as a YAML document, ending in a newline.
    var yaml: String {
        var out = ""
        write(into: &out, indent: 0)
        return out
    }

    private var isEmptyContainer: Bool {
        switch self {
        case .map(let entries): entries.isEmpty
        case .list(let elements): elements.isEmpty
        default: false
        }
    }

    private var isContainer: Bool {
        switch self {
        case .map, .list: true
        default: false
        }
    }

    /// Writes a container as indented lines, a scalar (or an empty container) as one line.
    private func write(into out: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent)
        switch self {
        case .map(let entries) where !entries.isEmpty:
            for (key, value) in entries {
                out += pad + Self.key(key) + ":"
                if value.isContainer, !value.isEmptyContainer {
                    out += "\n"
                    value.write(into: &out, indent: indent + 1)
                } else {
                    out += " " + value.scalar + "\n"
                }
            }
        case .list(let elements) where !elements.isEmpty:
            for element in elements {
                if element.isContainer, !element.isEmptyContainer {
                    // The first line of the nested block moves up behind the dash; the rest keep
                    // their indentation, which is the dash's plus one level.
                    var body = ""
                    element.write(into: &body, indent: indent + 1)
                    out += pad + "- " + body.drop(while: { $0 == " " })
                } else {
                    out += pad + "- " + element.scalar + "\n"
                }
            }
        default:
            out += scalar + "\n"
        }
    }

    private var scalar: String {
        switch self {
        case .map: "{}"
        case .list: "[]"
        case .string(let string): Self.quoted(string)
        case .int(let value): String(value)
        case .number(let literal): literal
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        }
    }

    /// Words YAML 1.1 readers (PyYAML among them) take for booleans or null when plain.
    private static let reservedWords: Set<String> = ["y", "n", "yes", "no", "on", "off", "true", "false", "null"]

    /// A key plain when it is an identifier (`type`, `X-Request-ID`), else quoted (`"200"`,
    /// `"$ref"`, `"/v1/products"`).
    static func key(_ key: String) -> String {
        let bytes = Array(key.utf8)
        let isLetter = { (byte: UInt8) in (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        let isPlain =
            bytes.first.map(isLetter) == true
            && bytes.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
            && !reservedWords.contains(key.lowercased())
        return isPlain ? key : quoted(key)
    }

    /// A double-quoted scalar with JSON's escapes, which YAML's double-quoted style shares; what
    /// YAML may not carry raw (C0 and C1 controls, DEL, line and paragraph separators, BOM,
    /// U+FFFE/U+FFFF) is escaped too.
    static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                let value = scalar.value
                if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 || value == 0xFEFF
                    || value == 0xFFFE || value == 0xFFFF
                {
                    let hex = String(value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
