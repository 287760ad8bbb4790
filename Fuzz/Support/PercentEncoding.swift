/// Percent-encoding for rendering parsed values back into a request target.
public enum PercentEncoding {
    /// Every byte but RFC 3986's unreserved ones is escaped, so the text means one thing only.
    public static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += hex.count == 1 ? "%0" + hex : "%" + hex
            }
        }
        return out
    }

    /// A query string of `items`, each name and value escaped.
    public static func query(_ items: [(String, String)]) -> String {
        items.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }
}
