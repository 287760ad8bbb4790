/// Dates and instants as definitions store and exchange them: `YYYY-MM-DD` for dates, Unix
/// milliseconds (UTC) for date-times, RFC 3339 on the wire.
///
/// Proleptic Gregorian arithmetic on integers (Howard Hinnant's days-from-civil), so parsing
/// and writing never depend on a locale, a time zone database or Foundation's calendars.
public enum DateText {
    /// The calendar date in `text` when it is exactly `YYYY-MM-DD` (years 0001…9999) and exists.
    public static func date(_ text: String) -> (year: Int, month: Int, day: Int)? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            year >= 1, (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return (year, month, day)
    }

    /// Days since 1970-01-01 of a date written exactly `YYYY-MM-DD` that exists (`date(_:)`).
    public static func days(_ text: String) -> Int64? {
        date(text).map { Int64(daysFromCivil(year: $0.year, month: $0.month, day: $0.day)) }
    }

    /// Milliseconds since 1970-01-01T00:00:00Z of an RFC 3339 date-time: `2026-11-24T17:00:00Z`,
    /// with optional fractional seconds (milliseconds kept, finer digits dropped) and a `Z` or
    /// `±HH:MM` offset; `t`/`z` and a space for `T` are accepted, as RFC 3339 allows.
    public static func instant(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, let date = date(String(decoding: bytes[0..<10], as: UTF8.self)),
            [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(bytes[10]),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]), let second = number(bytes[17..<19]),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var milliseconds = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, let digit = digit(bytes[index]) {
                if digits < 3 { milliseconds = milliseconds * 10 + digit }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { milliseconds *= 10 }
        }
        guard index < bytes.count else { return nil }
        var offsetMinutes = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
                let hours = number(bytes[(index + 1)..<(index + 3)]), let minutes = number(bytes[(index + 4)..<(index + 6)]),
                hours < 24, minutes < 60
            else { return nil }
            offsetMinutes = (hours * 60 + minutes) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        let days = Int64(daysFromCivil(year: date.year, month: date.month, day: date.day))
        let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        return seconds * 1_000 + Int64(milliseconds)
    }

    /// `2026-11-24T17:00:00.000Z`: the instant in UTC with milliseconds.
    public static func rfc3339(milliseconds: Int64) -> String {
        let (days, remainder) = floorDivision(milliseconds, 86_400_000)
        let hour = remainder / 3_600_000
        let minute = remainder / 60_000 % 60
        let second = remainder / 1_000 % 60
        let millisecond = remainder % 1_000
        return "\(text(days: days))T\(padded(Int(hour), 2)):\(padded(Int(minute), 2)):\(padded(Int(second), 2)).\(padded(Int(millisecond), 3))Z"
    }

    /// `YYYY-MM-DD` of the day `days` after 1970-01-01.
    public static func text(days: Int64) -> String {
        let civil = civilFromDays(days)
        return "\(padded(civil.year, 4))-\(padded(civil.month, 2))-\(padded(civil.day, 2))"
    }

    /// The date of an instant, in UTC.
    public static func civil(milliseconds: Int64) -> (year: Int, month: Int, day: Int) {
        civilFromDays(floorDivision(milliseconds, 86_400_000).quotient)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = Int(days) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value / divisor
        let remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard let digit = digit(byte) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
