/// The raw request target, split and decoded the way routing needs it.
///
/// libmicrohttpd hands handlers a path it has already percent-decoded, where `%2F` has become
/// a `/` and `%00` ends the string. rowserver routes on the raw target instead: it splits the
/// path on literal `/` first and decodes each segment afterwards, so an encoded slash stays
/// inside its segment and can never change which route is taken.
public struct RequestTarget: Sendable, Equatable {
    /// The raw path, still percent-encoded (`/v1/products/prd_01`).
    public var path: String
    /// Decoded path segments (`["v1", "products", "prd_01"]`); the root `/` has none.
    public var segments: [String]
    public var query: [QueryItem]

    /// Longest raw query string parsed; the connection memory limit bounds it anyway.
    static let maxQueryItems = 64

    /// Parses on the target's UTF-8 bytes in place: going through `Character` or index-based
    /// `String` operations would cost more than the rest of the request path together.
    public static func parse(_ raw: String) throws(HTTPError) -> RequestTarget {
        var raw = raw
        return try raw.withUTF8 { bytes in Result { () throws(HTTPError) in try parse(bytes: bytes) } }.get()
    }

    private static let slash = UInt8(ascii: "/")
    private static let question = UInt8(ascii: "?")
    private static let ampersand = UInt8(ascii: "&")
    private static let equals = UInt8(ascii: "=")
    private static let percent = UInt8(ascii: "%")
    private static let plus = UInt8(ascii: "+")

    static func parse(bytes: UnsafeBufferPointer<UInt8>) throws(HTTPError) -> RequestTarget {
        if bytes.count == 1 && bytes[0] == UInt8(ascii: "*") { return RequestTarget(path: "*", segments: ["*"], query: []) }
        // libmicrohttpd's lenient parser lets spaces into the target ("GET /a b HTTP/1.1"). Checked
        // before the absolute form, which returned early and let "http://a b" or "http\u{1A}//x"
        // through as "/" (found by fuzzing); with no control bytes left, the scheme's `| 0x20`
        // comparison matches letters only.
        if bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            throw .badRequest("INVALID_PATH", "The request target must not contain spaces or control characters.")
        }
        if bytes.contains(UInt8(ascii: "#")) {
            throw .badRequest("INVALID_PATH", "The request target must not contain a fragment ('#').")
        }
        var start = 0
        // absolute-form (RFC 9112 §3.2.2): servers must accept it; only the path matters here.
        // An origin-form target (nearly every one) starts with "/" and is not looked at twice.
        if bytes.first != slash, let schemeEnd = absoluteFormSchemeEnd(bytes) {
            guard let slashIndex = bytes[schemeEnd...].firstIndex(of: slash) else {
                return RequestTarget(path: "/", segments: [], query: [])
            }
            start = slashIndex
        }
        guard start < bytes.count, bytes[start] == slash else {
            throw .badRequest("INVALID_PATH", "The request target must be an absolute path starting with '/'.")
        }
        let mark = bytes[start...].firstIndex(of: question) ?? bytes.count
        var segments: [String] = []
        var segmentStart = start + 1
        if segmentStart < mark {
            var slashes = 1
            for index in segmentStart..<mark where bytes[index] == slash { slashes += 1 }
            segments.reserveCapacity(slashes)
            while true {
                let segmentEnd = bytes[segmentStart..<mark].firstIndex(of: slash) ?? mark
                segments.append(try decodeSegment(UnsafeBufferPointer(rebasing: bytes[segmentStart..<segmentEnd])))
                if segmentEnd == mark { break }
                segmentStart = segmentEnd + 1
            }
        }
        let query = mark < bytes.count ? try parseQuery(bytes: UnsafeBufferPointer(rebasing: bytes[(mark + 1)...])) : []
        let path = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<mark]), as: UTF8.self)
        return RequestTarget(path: path, segments: segments, query: query)
    }

    /// The index after `http://` or `https://`, when the target is in absolute form.
    private static func absoluteFormSchemeEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        for scheme in ["http://", "https://"] where bytes.count >= scheme.utf8.count {
            if zip(bytes, scheme.utf8).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) { return scheme.utf8.count }
        }
        return nil
    }

    /// A segment without escapes is taken as it is: the whole target was checked for control
    /// bytes before, so only a decoded one can hold them, and its dot segments are spelled out.
    private static func decodeSegment(_ raw: UnsafeBufferPointer<UInt8>) throws(HTTPError) -> String {
        if !raw.contains(percent) {
            if !raw.isEmpty && raw.count <= 2 && raw.allSatisfy({ $0 == UInt8(ascii: ".") }) {
                throw .badRequest("INVALID_PATH", "The path must not contain dot segments ('.' or '..').")
            }
            return String(decoding: raw, as: UTF8.self)
        }
        let decoded: String
        do {
            decoded = try PercentDecoding.decode(raw, plusAsSpace: false)
        } catch .malformedEscape {
            throw .badRequest("INVALID_PATH", "The path has a malformed percent-escape.")
        } catch {
            throw .badRequest("INVALID_PATH", "The path is not valid UTF-8 once percent-decoded.")
        }
        if decoded == "." || decoded == ".." {
            throw .badRequest("INVALID_PATH", "The path must not contain dot segments ('.' or '..').")
        }
        if decoded.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw .badRequest("INVALID_PATH", "The path must not contain NUL or other control characters.")
        }
        return decoded
    }

    /// Parses `name=value&...` (form encoding: `+` is a space).
    static func parseQuery(bytes: UnsafeBufferPointer<UInt8>) throws(HTTPError) -> [QueryItem] {
        var items: [QueryItem] = []
        var pairStart = 0
        while pairStart < bytes.count {
            let pairEnd = bytes[pairStart...].firstIndex(of: ampersand) ?? bytes.count
            defer { pairStart = pairEnd + 1 }
            if pairStart == pairEnd { continue }
            guard items.count < maxQueryItems else {
                throw .badRequest("INVALID_QUERY", "The query string has more than \(maxQueryItems) parameters.")
            }
            let equalsIndex = bytes[pairStart..<pairEnd].firstIndex(of: equals) ?? pairEnd
            let pair = UnsafeBufferPointer(rebasing: bytes[pairStart..<pairEnd])
            let name = try decodeQueryComponent(UnsafeBufferPointer(rebasing: bytes[pairStart..<equalsIndex]))
            let value = equalsIndex == pairEnd ? "" : try decodeQueryComponent(UnsafeBufferPointer(rebasing: bytes[(equalsIndex + 1)..<pairEnd]))
            if decodesToNUL(pair) {
                throw .badRequest("INVALID_QUERY", "Query parameters must not contain NUL characters.", parameter: name)
            }
            items.append(QueryItem(name: name, value: value))
        }
        return items
    }

    /// Whether percent-decoding `raw` (escapes already checked) yields a NUL: a raw zero byte or
    /// `%00`. Checked on the raw bytes: searching the decoded strings (`utf8.contains`) is a
    /// generic iteration.
    static func decodesToNUL(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            if byte == 0 { return true }
            if byte == percent && index + 2 < raw.count && raw[index + 1] == UInt8(ascii: "0") && raw[index + 2] == UInt8(ascii: "0") {
                return true
            }
            index += 1
        }
        return false
    }

    private static func decodeQueryComponent(_ raw: UnsafeBufferPointer<UInt8>) throws(HTTPError) -> String {
        do {
            return try PercentDecoding.decode(raw, plusAsSpace: true)
        } catch .malformedEscape {
            throw .badRequest("INVALID_QUERY", "The query string has a malformed percent-escape.")
        } catch {
            throw .badRequest("INVALID_QUERY", "The query string is not valid UTF-8 once percent-decoded.")
        }
    }
}

/// One decoded `name=value` pair of the query string.
public struct QueryItem: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
