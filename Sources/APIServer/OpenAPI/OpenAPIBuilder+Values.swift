/// Bounds written back in the units a definition gave them: decimals in their own units, dates
/// as `YYYY-MM-DD`, date-times as RFC 3339 UTC.
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

    /// Days since 1970-01-01 → `YYYY-MM-DD` (proleptic Gregorian, Howard Hinnant's `civil_from_days`).
    static func dateText(_ days: Int64) -> String {
        let (year, month, day) = civil(days)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    /// Unix milliseconds → `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    static func dateTimeText(_ milliseconds: Int64) -> String {
        let perDay: Int64 = 86_400_000
        let days = milliseconds >= 0 ? milliseconds / perDay : -((-milliseconds + perDay - 1) / perDay)
        let rest = milliseconds - days * perDay
        let time = pad(rest / 3_600_000, 2) + ":" + pad(rest / 60_000 % 60, 2) + ":" + pad(rest / 1000 % 60, 2) + "." + pad(rest % 1000, 3)
        return dateText(days) + "T" + time + "Z"
    }

    private static func civil(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value.magnitude)
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
