import APIServer
import Domain

/// JSON text for a ``JSONValue``, written independently of the server's encoders so that a
/// parse → render → parse round trip checks the parser against a second implementation.
public enum JSONText {
    public static func render(_ value: JSONValue) -> String {
        var text = ""
        write(value, into: &text)
        return text
    }

    private static func write(_ value: JSONValue, into text: inout String) {
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let number): text += number.text
        case .string(let string): writeString(string, into: &text)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                write(element, into: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { text += "," }
                writeString(member.key, into: &text)
                text += ":"
                write(member.value, into: &text)
            }
            text += "}"
        }
    }

    private static func writeString(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// The deepest nesting of objects and arrays in `value` (a scalar is 0).
    public static func depth(_ value: JSONValue) -> Int {
        switch value {
        case .array(let elements): 1 + (elements.map(depth).max() ?? 0)
        case .object(let members): 1 + (members.map { depth($0.value) }.max() ?? 0)
        default: 0
        }
    }

    /// Whether every object in `value` has distinct keys.
    public static func hasUniqueKeys(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let elements): return elements.allSatisfy(hasUniqueKeys)
        case .object(let members):
            return Set(members.map(\.key)).count == members.count && members.allSatisfy { hasUniqueKeys($0.value) }
        default: return true
        }
    }
}
