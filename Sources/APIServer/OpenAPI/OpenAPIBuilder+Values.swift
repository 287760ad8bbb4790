/// Bounds written back in the units a definition gave them: decimals in their own units (dates
/// and date-times are `DateText`'s).
extension OpenAPIBuilder {
    /// `1250` at scale 2 → `12.5`; trailing fraction zeros dropped, no exponent (a JSON number).
    static func decimalText(_ scaled: Int64, scale: Int) -> String {
        let digits = String(scaled.magnitude)
        let sign = scaled < 0 ? "-" : ""
        guard scale > 0 else { return sign + digits }
        let padded = String(repeating: "0", count: max(0, scale + 1 - digits.count)) + digits
        let whole = padded.dropLast(scale)
        let fraction = padded.suffix(scale).reversed().drop(while: { $0 == "0" }).reversed()
        return sign + whole + (fraction.isEmpty ? "" : "." + String(fraction))
    }
}
