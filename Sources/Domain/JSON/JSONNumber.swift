/// A JSON number as its literal text, so no precision is lost before a field says what it needs.
///
/// A `Double` cannot tell `9007199254740993` from `9007199254740992`; keeping the text lets
/// ``int64`` answer exactly. Equality compares the text: `1.0` and `1` are different documents.
public struct JSONNumber: Sendable, Equatable, CustomStringConvertible {
    /// The literal, already checked against the JSON grammar by the parser.
    public let text: String

    /// Only the parser (which checks the grammar) and ``init(integer:)`` make numbers.
    init(validatedText text: String) {
        self.text = text
    }

    public init(integer: Int64) {
        text = String(integer)
    }

    public var description: String { text }

    /// The nearest `Double`; finite, because the parser refuses numbers that overflow it.
    public var double: Double { Double(text) ?? .nan }

    /// The value when it is a whole number that fits in `Int64`, computed exactly from the
    /// digits: `12`, `12.0` and `1.2e1` are 12; `12.5`, `1e19` and `9223372036854775808` are nil.
    public var int64: Int64? {
        var bytes = Substring(text).utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        // Significant digits (integer then fraction part) and the power of ten they are scaled by.
        var digits: [UInt8] = []
        var scale = 0
        var inFraction = false
        var exponentText: Substring.UTF8View.SubSequence?
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                exponentText = bytes[bytes.index(after: index)...]
                break
            } else {
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte - UInt8(ascii: "0")) }
                if inFraction { scale -= 1 }
            }
            index = bytes.index(after: index)
        }
        if digits.isEmpty { return 0 }
        if let exponentText {
            guard let exponent = Self.exponent(exponentText, limit: text.utf8.count + 20) else { return nil }
            scale += exponent
        }
        // Fraction digits must all be zeros for a whole number.
        while scale < 0 {
            guard digits.last == 0 else { return nil }
            digits.removeLast()
            scale += 1
        }
        guard digits.count + scale <= 19 else { return nil }
        var magnitude: UInt64 = 0
        for digit in digits + [UInt8](repeating: 0, count: scale) {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return nil }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// An exponent's value, or nil when its magnitude passes `limit` (the literal's length plus
    /// Int64's 19 digits): then a nonzero number overflows `Int64` or keeps fraction digits
    /// no literal of that length could cancel, so it is not an in-range whole number anyway.
    private static func exponent(_ text: Substring.UTF8View.SubSequence, limit: Int) -> Int? {
        var bytes = text
        var sign = 1
        if bytes.first == UInt8(ascii: "-") {
            sign = -1
            bytes = bytes.dropFirst()
        } else if bytes.first == UInt8(ascii: "+") {
            bytes = bytes.dropFirst()
        }
        var value = 0
        for byte in bytes {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            if value > limit { return nil }
        }
        return sign * value
    }
}
