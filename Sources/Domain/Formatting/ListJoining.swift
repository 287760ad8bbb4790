/// Joins a few texts as the locale writes a list, by CLDR's list patterns ("standard" for
/// `and`, "or" for `or`): `A, B, and C` (en-US), `A, B and C` (en-GB), `A, B und C`,
/// `A, B et C`, `A、B、C` and `A、B、またはC`.
///
/// Written out rather than Foundation's `ListFormatter`, which swift-corelibs-foundation does
/// not have; the patterns are those of the five supported locales only.
public enum ListJoining: Sendable {
    case and
    case or

    public func join(_ items: [String], in locale: RenderLocale) -> String {
        guard let last = items.last else { return "" }
        guard items.count > 1 else { return last }
        let words = self.words(locale)
        if items.count == 2 { return items[0] + words.pair + last }
        return items.dropLast().joined(separator: words.middle) + words.end + last
    }

    /// Between the only two items, between items before the last, and before the last of three or more.
    private func words(_ locale: RenderLocale) -> (pair: String, middle: String, end: String) {
        switch (self, locale) {
        case (.and, .enUS): (" and ", ", ", ", and ")
        case (.and, .enGB): (" and ", ", ", " and ")
        case (.and, .deDE): (" und ", ", ", " und ")
        case (.and, .frFR): (" et ", ", ", " et ")
        case (.and, .jaJP): ("、", "、", "、")
        case (.or, .enUS): (" or ", ", ", ", or ")
        case (.or, .enGB): (" or ", ", ", " or ")
        case (.or, .deDE): (" oder ", ", ", " oder ")
        case (.or, .frFR): (" ou ", ", ", " ou ")
        case (.or, .jaJP): ("または", "、", "、または")
        }
    }
}
