/// Numbers as a definition writes them, read from the scalar's text rather than through YAML's
/// own conversions: only plain decimal notation is accepted (no `0x`, `0o`, `1_000`, `1e3`,
/// sexagesimal `1:30`, or a leading zero YAML 1.1 would read as octal), and every overflow is
/// a nil instead of a trap.
enum ScalarNumber {
    /// `-12`, `+7`, `0`.
    static func integer(_ text: String) -> Int64? {
        guard let parts = split(text), parts.fraction == nil else { return nil }
        guard let magnitude = UInt64(parts.whole) else { return nil }
        if parts.negative {
            return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    enum Scaled: Equatable {
        case value(Int64)
        /// Not plain decimal notation.
        case notANumber
        /// More fraction digits than the scale keeps.
        case tooPrecise
        case tooLarge
    }

    /// `12.5` at scale 2 is 1250: the number in units of 10^-scale, exactly.
    static func scaled(_ text: String, scale: Int) -> Scaled {
        guard let parts = split(text) else { return .notANumber }
        let fraction = parts.fraction ?? ""
        let significant = fraction.reversed().drop { $0 == "0" }.count
        guard significant <= scale else { return .tooPrecise }
        var magnitude = UInt64(0)
        let digits = parts.whole + fraction.prefix(significant) + String(repeating: "0", count: scale - significant)
        for digit in digits.utf8 {
            let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            guard !overflow, !overflow2 else { return .tooLarge }
            magnitude = sum
        }
        if parts.negative {
            return magnitude <= UInt64(Int64.max) + 1 ? .value(Int64(truncatingIfNeeded: 0 &- magnitude)) : .tooLarge
        }
        return magnitude <= UInt64(Int64.max) ? .value(Int64(magnitude)) : .tooLarge
    }

    /// A finite number in plain decimal notation (an entry of a `numbers` default).
    static func double(_ text: String) -> Double? {
        guard split(text) != nil, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// Sign, whole digits (no leading zero unless alone) and optional fraction digits.
    private static func split(_ text: String) -> (negative: Bool, whole: String, fraction: String?)? {
        var rest = Substring(text)
        var negative = false
        if let first = rest.first, first == "-" || first == "+" {
            negative = first == "-"
            rest = rest.dropFirst()
        }
        let pieces = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = pieces.first, isDigits(whole), whole == "0" || whole.first != "0" else { return nil }
        guard pieces.count == 2 else { return (negative, String(whole), nil) }
        guard isDigits(pieces[1]) else { return nil }
        return (negative, String(whole), String(pieces[1]))
    }

    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
