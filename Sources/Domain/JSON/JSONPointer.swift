/// JSON pointers (RFC 6901), which 422 problems use to name the failing field.
public enum JSONPointer {
    /// `base` extended by one object key or array index: `~` and `/` in keys are escaped
    /// (`~0`, `~1`) so a key like `a/b` cannot be read as two levels.
    public static func appending(_ base: String, _ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
            return base + "/" + token
        }
        var escaped = ""
        for character in token.unicodeScalars {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return base + "/" + escaped
    }

    public static func appending(_ base: String, _ index: Int) -> String {
        base + "/" + String(index)
    }
}
