import DemoData
import Testing

@testable import Domain

@Suite("Field values as rows show them")
struct FieldFormattingTests {
    static let channels = [
        NamedEntry(id: EntityID.generate(kind: .channel), name: "Left"),
        NamedEntry(id: EntityID.generate(kind: .channel), name: "Right"),
    ]

    struct Case: Sendable, CustomTestStringConvertible {
        var value: FieldValue
        var type: FieldType
        var locale: RenderLocale
        var expected: String?
        var names: [NamedEntry]? = nil
        var testDescription: String { "\(type.name) \(locale.rawValue) → \(expected ?? "nil")" }
    }

    static let yes = EnumCase(value: "open", label: LocalizedText(entries: [("en", "Open"), ("de", "Offen")])!)

    static let cases: [Case] = [
        Case(value: .null, type: .text, locale: .enUS, expected: nil),
        Case(value: .text(""), type: .text, locale: .enUS, expected: ""),
        Case(value: .text("**Bold** _it_"), type: .markdown, locale: .enUS, expected: "Bold it"),
        Case(value: .money(Money(minorUnits: 123_450, currency: "USD")), type: .money, locale: .enUS, expected: "$1,234.50"),
        Case(value: .money(Money(minorUnits: 123_450, currency: "EUR")), type: .money, locale: .deDE, expected: "1.234,50\u{a0}€"),
        Case(value: .integer(5000), type: .integer, locale: .deDE, expected: "5.000"),
        Case(value: .integer(12_345), type: .decimal(scale: 2), locale: .enUS, expected: "123.45"),
        Case(value: .integer(-5), type: .decimal(scale: 3), locale: .frFR, expected: "-0,005"),
        Case(value: .boolean(true), type: .boolean, locale: .deDE, expected: "Ja"),
        Case(value: .boolean(false), type: .boolean, locale: .jaJP, expected: "いいえ"),
        Case(value: .text("2026-11-24"), type: .date, locale: .enUS, expected: "Nov 24, 2026"),
        Case(value: .text("2026-11-24"), type: .date, locale: .enGB, expected: "24 Nov 2026"),
        Case(value: .text("2026-02-03"), type: .date, locale: .deDE, expected: "03.02.2026"),
        Case(value: .text("2026-08-03"), type: .date, locale: .frFR, expected: "3 août 2026"),
        Case(value: .text("2026-11-24"), type: .date, locale: .jaJP, expected: "2026/11/24"),
        Case(value: .integer(1_764_003_600_000), type: .dateTime, locale: .enUS, expected: "Nov 24, 2025, 5:00 PM UTC"),
        Case(value: .integer(1_764_003_600_000), type: .dateTime, locale: .deDE, expected: "24.11.2025, 17:00 UTC"),
        Case(value: .integer(0), type: .dateTime, locale: .enUS, expected: "Jan 1, 1970, 12:00 AM UTC"),
        Case(value: .integer(-1), type: .dateTime, locale: .jaJP, expected: "1969/12/31 23:59 UTC"),
        Case(value: .text("open"), type: .enumeration([yes]), locale: .deDE, expected: "Offen"),
        Case(value: .text("open"), type: .enumeration([yes]), locale: .frFR, expected: "Open"),
        Case(value: .numbers([0.5, 0.25]), type: .numbers(fractionDigits: 2), locale: .enUS, expected: "0.50, 0.25"),
        Case(value: .numbers([]), type: .numbers(fractionDigits: 2), locale: .enUS, expected: nil),
        Case(value: .numbers([0.5]), type: .numbers(fractionDigits: 1), locale: .deDE, expected: "Left 0,5, Right \u{2014}", names: channels),
        Case(value: .names(channels), type: .names(kind: .channel), locale: .enUS, expected: "Left, Right"),
        Case(value: .names([]), type: .names(kind: .channel), locale: .enUS, expected: nil),
    ]

    @Test(arguments: cases)
    func formatsByTypeAndLocale(_ test: Case) {
        let formatter = FieldFormatter(context: RenderContext(locale: test.locale))
        #expect(formatter.format(test.value, as: test.type, names: test.names) == test.expected)
    }

    @Test func aReferenceShowsTheReferencedTitleElseItsID() throws {
        let id = EntityID.generate(kind: .department)
        let formatter = FieldFormatter(context: RenderContext(locale: .enUS))
        #expect(formatter.format(.reference(id), as: .reference(collection: "departments"), referenceTitle: "Sales") == "Sales")
        #expect(formatter.format(.reference(id), as: .reference(collection: "departments")) == id.rawValue)
    }
}

@Suite("Markdown as plain text")
struct MarkdownPlainTextTests {
    @Test(arguments: [
        ("# Heading\n\nBody text.", "Heading Body text."),
        ("## Closed heading ##", "Closed heading"),
        ("**bold**, *em*, __strong__, _em_ and `code`", "bold, em, strong, em and code"),
        ("[a link](https://example.com) and ![an image](x.png)", "a link and an image"),
        ("- one\n- two\n* three\n+ four", "one two three four"),
        ("1. first\n2) second", "first second"),
        ("> quoted\n>> twice", "quoted twice"),
        ("```swift\nlet x = 1\n```", "let x = 1"),
        ("above\n\n---\n\nbelow", "above below"),
        ("snake_case_name stays", "snake_case_name stays"),
        ("~~gone~~ ~5 minutes", "gone ~5 minutes"),
        ("\\*not emphasis\\*", "*not emphasis*"),
        ("<b>bold</b> and <https://example.com> and a < b", "bold and https://example.com and a < b"),
        ("#hashtag is text", "#hashtag is text"),
        ("[unclosed link", "[unclosed link"),
        ("", ""),
        ("   \n\t\n", ""),
    ])
    func stripsMarkupAndKeepsText(markdown: String, expected: String) {
        #expect(MarkdownPlainText.plainText(of: markdown) == expected)
    }
}

@Suite("Counts of days")
struct DaysFormattingTests {
    @Test(arguments: [
        (RenderLocale.enUS, Int64(5), "5 days"), (.enUS, 1, "1 day"), (.enUS, -1, "-1 day"), (.enUS, 0, "0 days"), (.enGB, 1_200, "1,200 days"),
        (.deDE, 5, "5 Tage"), (.deDE, 1, "1 Tag"), (.frFR, 0, "0 jour"), (.frFR, 2, "2 jours"), (.jaJP, 5, "5日"),
    ])
    func daysReadInTheLocalesWords(locale: RenderLocale, count: Int64, expected: String) {
        #expect(RenderContext(locale: locale).days(count) == expected)
    }
}
