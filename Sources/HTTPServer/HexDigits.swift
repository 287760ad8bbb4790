/// Lowercase hexadecimal digits as ASCII bytes, for writing hex straight into a buffer (JSON
/// `\u00XX` escapes, request ids, entity tags) without `String(_:radix:)`.
public enum HexDigits {
    public static let lowercase: [UInt8] = Array("0123456789abcdef".utf8)
}
