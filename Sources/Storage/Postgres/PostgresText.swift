/// Readers of PostgreSQL's text output, straight from a result's bytes.
///
/// Each refuses (nil) what the server would not print for its type, rather than repair it: a column
/// that does not hold what the store expects is a bug to see, not a value to guess.
enum PostgresText {
    /// An `int2`, `int4` or `int8` as the server prints it: an optional `-`, then decimal digits.
    /// nil for anything else, or a value beyond `Int64`.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = bytes.first == UInt8(ascii: "-")
        let digits = bytes.dropFirst(negative ? 1 : 0)
        guard !digits.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in digits {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            // Accumulated with the sign, so that Int64.min (whose magnitude is no Int64) reads too.
            let (shifted, overflowShifting) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAdding) =
                negative ? shifted.subtractingReportingOverflow(Int64(digit)) : shifted.addingReportingOverflow(Int64(digit))
            guard !overflowShifting, !overflowAdding else { return nil }
            value = next
        }
        return value
    }

    /// A `float8` or `float4` as the server prints it ("0.1", "-0", "1e+300", "Infinity", "NaN"),
    /// with the shortest digits that read back exactly (`extra_float_digits` above 0, which the
    /// connection sets). nil for anything else.
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let first = bytes.first, first != UInt8(ascii: " "), first != UInt8(ascii: "+") else { return nil }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    /// A `bool` as the server prints it: `t` or `f`.
    static func boolean(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard bytes.count == 1 else { return nil }
        switch bytes[0] {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: return nil
        }
    }

    /// A `bytea` in its hex output form (`\x` then two digits a byte: `bytea_output = hex`, which
    /// the connection sets). nil for anything else, the older escape form included.
    static func bytes(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard text.count >= 2, text.count % 2 == 0, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x") else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(text.count / 2 - 1)
        var index = 2
        while index < text.count {
            guard let high = hexValue(text[index]), let low = hexValue(text[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
