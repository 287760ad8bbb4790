extension JSONNumber {
    /// The value times 10^`scale` when that is a whole number within `Int64`: how a decimal
    /// field with `scale` fraction digits stores `12.5` (1250 at scale 2). Exact, from the
    /// digits; nil for more fraction digits than `scale` or a value out of range.
    public func scaled(by scale: Int) -> Int64? {
        guard scale >= 0 else { return nil }
        let utf8 = Array(text.utf8)
        let split = utf8.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let mantissa = String(decoding: utf8[..<(split ?? utf8.endIndex)], as: UTF8.self)
        var exponent = 0
        if let split {
            var digits = utf8[(split + 1)...]
            var sign = 1
            if digits.first == UInt8(ascii: "-") {
                sign = -1
                digits = digits.dropFirst()
            } else if digits.first == UInt8(ascii: "+") {
                digits = digits.dropFirst()
            }
            // An exponent this large puts any nonzero value out of range or leaves fraction digits.
            guard digits.count <= 6, let value = Int(String(decoding: digits, as: UTF8.self)) else { return nil }
            exponent = sign * value
        }
        return JSONNumber(validatedText: mantissa + "e" + String(exponent + scale)).int64
    }
}
