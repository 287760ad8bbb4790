/// The content codings the server can send, and the choice among them for one request
/// (RFC 9110 §12.5.3, `Accept-Encoding`).
public enum ContentCoding: String, Sendable, Equatable {
    case identity
    case gzip

    /// The coding to send for `acceptEncoding`: gzip when the client accepts it with a weight
    /// above 0 (by name, as `x-gzip`, or through `*`) and does not weigh `identity` higher;
    /// identity otherwise. No header, an empty one, and codings the server does not know all
    /// leave identity. Identity is sent even when the client excludes it (`identity;q=0`) and
    /// gzip is not acceptable: RFC 9110 allows answering 406, but an uncompressed answer is
    /// more useful to a client than none.
    ///
    /// A malformed weight (`q=abc`, `q=2`) makes its element count as not acceptable: guessing
    /// a preference the client did not state is worse than ignoring the element.
    public static func preferred(acceptEncoding: String?) -> ContentCoding {
        guard let acceptEncoding, !acceptEncoding.isEmpty else { return .identity }
        var gzip: Double?
        var identity: Double?
        var any: Double?
        for element in acceptEncoding.split(separator: ",") {
            var parts = element.split(separator: ";").makeIterator()
            guard let name = parts.next()?.trimmingSpaces.lowercased(), !name.isEmpty else { continue }
            var weight = 1.0
            while let parameter = parts.next() {
                let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "q" else { continue }
                weight = Self.weight(pair[1].trimmingSpaces) ?? 0
            }
            switch name {
            case "gzip", "x-gzip": gzip = max(gzip ?? 0, weight)
            case "identity": identity = weight
            case "*": any = weight
            default: continue
            }
        }
        let gzipWeight = gzip ?? any ?? 0
        guard gzipWeight > 0 else { return .identity }
        if let identity, identity > gzipWeight { return .identity }
        return .gzip
    }

    /// A qvalue: `0`, `1`, or up to three decimals (`0.5`, `1.000`); nil when malformed.
    static func weight(_ text: Substring) -> Double? {
        guard let value = Double(text), value >= 0, value <= 1, text.utf8.count <= 5,
            text.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return value
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (optional whitespace in header lists).
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
