/// Dates and instants as rows show them: each locale's medium date, and for instants the time
/// in UTC (the server knows no client's time zone, so it says which one it used).
///
/// Written out per locale rather than through Foundation's formatters: the five patterns are
/// fixed, cost no formatter per call, and read the same on every platform.
///
/// | locale | date | date-time |
/// |---|---|---|
/// | en-US | `Nov 24, 2026` | `Nov 24, 2026, 5:07 PM UTC` |
/// | en-GB | `24 Nov 2026` | `24 Nov 2026, 17:07 UTC` |
/// | de-DE | `24.11.2026` | `24.11.2026, 17:07 UTC` |
/// | fr-FR | `24 nov. 2026` | `24 nov. 2026, 17:07 UTC` |
/// | ja-JP | `2026/11/24` | `2026/11/24 17:07 UTC` |
public enum DateDisplay {
    /// A `YYYY-MM-DD` date; nil when the text is not one.
    public static func date(_ text: String, locale: RenderLocale) -> String? {
        DateText.date(text).map { date(year: $0.year, month: $0.month, day: $0.day, locale: locale) }
    }

    /// Unix milliseconds, in UTC.
    public static func dateTime(milliseconds: Int64, locale: RenderLocale) -> String {
        let civil = DateText.civil(milliseconds: milliseconds)
        let dayMilliseconds = ((milliseconds % 86_400_000) + 86_400_000) % 86_400_000
        let minutes = Int(dayMilliseconds / 60_000)
        let hour = minutes / 60
        let minute = minutes % 60
        let day = date(year: civil.year, month: civil.month, day: civil.day, locale: locale)
        switch locale {
        case .enUS:
            let twelve = hour % 12 == 0 ? 12 : hour % 12
            return "\(day), \(twelve):\(two(minute)) \(hour < 12 ? "AM" : "PM") UTC"
        case .jaJP: return "\(day) \(hour):\(two(minute)) UTC"
        case .enGB, .deDE, .frFR: return "\(day), \(two(hour)):\(two(minute)) UTC"
        }
    }

    static func date(year: Int, month: Int, day: Int, locale: RenderLocale) -> String {
        switch locale {
        case .enUS: "\(englishMonths[month - 1]) \(day), \(year)"
        case .enGB: "\(day) \(englishMonths[month - 1]) \(year)"
        case .deDE: "\(two(day)).\(two(month)).\(year)"
        case .frFR: "\(day) \(frenchMonths[month - 1]) \(year)"
        case .jaJP: "\(year)/\(two(month))/\(two(day))"
        }
    }

    private static let englishMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let frenchMonths = [
        "janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc.",
    ]

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
