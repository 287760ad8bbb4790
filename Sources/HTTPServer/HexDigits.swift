/// Hexadecimal digits as ASCII bytes, for writing hex straight into a buffer (JSON
/// `\u00XX` escapes, request ids, entity tags) without `String(_:radix:)`.
public enum HexDigits {
    public static let lowercase: [UInt8] = Array("0123456789abcdef".utf8)
    /// For percent-encoding, whose normalized form is uppercase (RFC 3986 §2.1).
    public static let uppercase: [UInt8] = Array("0123456789ABCDEF".utf8)
}
