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
    ///
    /// Read in one pass over the header's bytes, allocating nothing: every answer of 1 KiB or
    /// more asks, and splitting the header into strings cost more than the cached answer itself.
    public static func preferred(acceptEncoding: String?) -> ContentCoding {
        guard var acceptEncoding, !acceptEncoding.isEmpty else { return .identity }
        return acceptEncoding.withUTF8 { preferred(in: $0) }
    }

    private static func preferred(in bytes: UnsafeBufferPointer<UInt8>) -> ContentCoding {
        var gzip: Double?
        var identity: Double?
        var any: Double?
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
            if let (name, weight) = element(bytes, start..<end) {
                switch name {
                case .gzip: gzip = max(gzip ?? 0, weight)
                case .identity: identity = weight
                case .any: any = weight
                }
            }
            start = end + 1
        }
        let gzipWeight = gzip ?? any ?? 0
        guard gzipWeight > 0 else { return .identity }
        if let identity, identity > gzipWeight { return .identity }
        return .gzip
    }

    private enum Name { case gzip, identity, any }

    /// One list element, `name *( OWS ";" OWS parameter )`: the coding it names (nil for one
    /// the server does not know) and its weight, from the last `q` parameter (1 without one).
    private static func element(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> (Name, Double)? {
        var end = range.lowerBound
        while end < range.upperBound, bytes[end] != UInt8(ascii: ";") { end += 1 }
        let token = trimmed(bytes, range.lowerBound..<end)
        let name: Name
        if matches(bytes, token, "gzip") || matches(bytes, token, "x-gzip") {
            name = .gzip
        } else if matches(bytes, token, "identity") {
            name = .identity
        } else if matches(bytes, token, "*") {
            name = .any
        } else {
            return nil
        }
        var weight = 1.0
        var start = end + 1
        while start <= range.upperBound {
            end = start
            while end < range.upperBound, bytes[end] != UInt8(ascii: ";") { end += 1 }
            var equals = start
            while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
            if equals < end, matches(bytes, trimmed(bytes, start..<equals), "q") {
                weight = qvalue(bytes, trimmed(bytes, equals + 1..<end)) ?? 0
            }
            start = end + 1
        }
        return (name, weight)
    }

    /// `range` without leading and trailing spaces and tabs (optional whitespace in header lists).
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var (lower, upper) = (range.lowerBound, range.upperBound)
        while lower < upper, bytes[lower] == UInt8(ascii: " ") || bytes[lower] == UInt8(ascii: "\t") { lower += 1 }
        while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") || bytes[upper - 1] == UInt8(ascii: "\t") { upper -= 1 }
        return lower..<upper
    }

    /// Whether `range` spells `name`, ignoring the case of ASCII letters.
    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ name: StaticString) -> Bool {
        name.withUTF8Buffer { ASCIICase.equal(UnsafeBufferPointer(rebasing: bytes[range]), $0) }
    }

    /// A qvalue: `0`, `1`, or up to three decimals (`0.5`, `1.000`); nil when malformed (more
    /// than five characters, anything but digits and one dot, no digit, above 1).
    static func qvalue(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        guard (1...5).contains(range.count) else { return nil }
        var value = 0.0
        var scale: Double?
        var digits = 0
        for index in range {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard scale == nil else { return nil }
                scale = 1
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            digits += 1
            let digit = Double(byte - UInt8(ascii: "0"))
            if var place = scale {
                place /= 10
                value += digit * place
                scale = place
            } else {
                value = value * 10 + digit
            }
        }
        guard digits > 0, value <= 1 else { return nil }
        return value
    }
}
