/// A strict JSON parser (RFC 8259) for request bodies, into an ordered ``JSONValue``.
///
/// Foundation's `JSONDecoder` keeps the first of two duplicate keys without a word, accepts
/// what its platform happens to accept, and loses member order; a write API must refuse
/// ambiguous input instead, so this parser refuses:
///
/// | input | kind |
/// |---|---|
/// | bytes that are not well-formed UTF-8 (checked first, over the whole body) | `invalidUTF8` |
/// | a key repeated in one object, at any depth (keys compared as Swift strings, i.e. canonically equivalent spellings are the same key) | `duplicateKey` |
/// | objects and arrays nested deeper than 32 | `tooDeep` |
/// | a byte-order mark, comments, trailing commas, single quotes, `NaN`, bare words | `malformed` |
/// | anything but whitespace after the document, or an empty body | `malformed` |
/// | leading zeros (`01`), `+1`, `.5`, `1.`, `1e` | `malformed` |
/// | a number whose magnitude overflows `Double` (`1e400`) | `malformed` |
/// | raw control characters (U+0000…U+001F) inside strings; unknown escapes | `malformed` |
/// | `\u` escapes of lone surrogates (`"\uD800"`, `"\uDC00x"`) | `malformed` |
///
/// Depth is bounded, so recursion is too. `\u0000` is valid JSON and is parsed; the item
/// validation refuses NUL in text fields.
public struct JSONParser {
    /// Objects and arrays may nest this deep; `[[…]]` 33 levels deep is refused.
    public static let maxDepth = 32

    /// Parses a whole body; exactly one value, optionally surrounded by whitespace.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        if let offset = UTF8Validation.firstInvalidOffset(bytes) {
            throw JSONParseError(.invalidUTF8, offset: offset, detail: "The body is not valid UTF-8 (at byte \(offset)).")
        }
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else {
            throw parser.malformed("Unexpected data after the JSON document")
        }
        return value
    }

    let bytes: [UInt8]
    var index = 0
    /// Keys and indexes from the root to the value being parsed, for duplicate-key pointers.
    var path: [String] = []

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func malformed(_ what: String, at offset: Int? = nil) -> JSONParseError {
        let offset = offset ?? index
        return JSONParseError(.malformed, offset: offset, detail: "The body is not valid JSON: \(what) at byte \(offset).")
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard let byte = current else { throw malformed("Unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw malformed("Unexpected character")
        }
    }

    private mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw malformed("Unexpected end of input") }
        let matches = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw malformed("Unknown literal") }
        index += count
        return value
    }

    private func pointer(appending key: String) -> String {
        var pointer = ""
        for token in path { pointer = JSONPointer.appending(pointer, token) }
        return JSONPointer.appending(pointer, key)
    }

    /// Past the opening bracket of an object or array at `depth`; true when `closing` follows at
    /// once (an empty one, passed whole).
    private mutating func opened(depth: Int, closing: Unicode.Scalar) throws(JSONParseError) -> Bool {
        guard depth <= Self.maxDepth else {
            throw JSONParseError(.tooDeep, offset: index, detail: "The body nests objects and arrays deeper than \(Self.maxDepth) levels.")
        }
        index += 1
        skipWhitespace()
        guard current == UInt8(ascii: closing) else { return false }
        index += 1
        return true
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        if try opened(depth: depth, closing: "}") { return .object([]) }
        var members: [JSONMember] = []
        var keys = Set<String>()
        while true {
            guard current == UInt8(ascii: "\"") else { throw malformed("Expected a string key") }
            let keyOffset = index
            let key = try parseString()
            guard keys.insert(key).inserted else {
                let pointer = pointer(appending: key)
                throw JSONParseError(
                    .duplicateKey(pointer: pointer), offset: keyOffset,
                    detail: "A key appears twice in one object (at byte \(keyOffset)); errors[0].pointer names it.")
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw malformed("Expected ':' after a key") }
            index += 1
            skipWhitespace()
            path.append(key)
            let value = try parseValue(depth: depth)
            path.removeLast()
            members.append(JSONMember(key, value))
            if try passedSeparator(closing: "}") { return .object(members) }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        if try opened(depth: depth, closing: "]") { return .array([]) }
        var elements: [JSONValue] = []
        while true {
            path.append(String(elements.count))
            let value = try parseValue(depth: depth)
            path.removeLast()
            elements.append(value)
            if try passedSeparator(closing: "]") { return .array(elements) }
        }
    }

    /// Past the `,` after a member or an element (false), or past `closing`, the end of its
    /// object or array (true).
    private mutating func passedSeparator(closing: Unicode.Scalar) throws(JSONParseError) -> Bool {
        skipWhitespace()
        switch current {
        case UInt8(ascii: ","):
            index += 1
            skipWhitespace()
            return false
        case UInt8(ascii: closing):
            index += 1
            return true
        case nil: throw malformed("Unexpected end of input")
        default: throw malformed("Expected ',' or '\(closing)'")
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, Self.isDigit(first) else { throw malformed("Expected a digit") }
        index += 1
        if first == UInt8(ascii: "0"), let next = current, Self.isDigit(next) {
            throw malformed("Leading zeros are not allowed in numbers", at: start)
        }
        skipDigits()
        if current == UInt8(ascii: ".") {
            index += 1
            guard let digit = current, Self.isDigit(digit) else { throw malformed("Expected a digit after '.'") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, Self.isDigit(digit) else { throw malformed("Expected a digit in the exponent") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        // Valid grammar but no representable value: refuse rather than store infinity.
        guard let value = Double(text), value.isFinite else {
            throw malformed("Number out of range", at: start)
        }
        return JSONNumber(validatedText: text)
    }

    private mutating func skipDigits() {
        while let byte = current, Self.isDigit(byte) { index += 1 }
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
