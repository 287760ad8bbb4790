import Testing

@testable import Domain

@Suite("Locale negotiation")
struct RenderLocaleTests {
    @Test(
        "Accept-Language picks the best supported locale",
        arguments: [
            (nil, RenderLocale.enUS), ("", .enUS), ("en-US", .enUS), ("en-GB", .enGB), ("de-DE", .deDE), ("fr-FR", .frFR),
            ("ja-JP", .jaJP), ("de", .deDE), ("en", .enUS), ("fr-CA", .frFR), ("de-AT", .deDE), ("ja", .jaJP), ("*", .enUS),
            ("en-gb", .enGB), ("EN-GB", .enGB), ("en_GB", .enGB), ("es-ES", .enUS), ("garbage!!", .enUS), (";;;,,,", .enUS),
            ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", .frFR), ("da, en-gb;q=0.8, en;q=0.7", .enGB),
            ("en;q=0.5, de;q=0.9", .deDE), ("ja;q=0.9, fr;q=0.9", .jaJP), ("es, *;q=0.1", .enUS), ("de;q=0, *", .enUS),
            ("en;q=0, *", .deDE), ("en-US;q=0, en", .enGB), ("de;q=0", .enUS), ("de;q=1.0", .deDE), ("de;q=1.5, fr", .frFR),
            ("de;q=0.abc, fr", .frFR), ("de;Q=0.2, fr;q=0.1", .deDE), ("  de-DE  ;  q=0.8  ", .deDE),
            ("zh-Hant-TW, ja;q=0.2", .jaJP), ("de-Latn-DE", .deDE), ("en-GB-oxendict", .enGB), ("fr;q=0.000", .enUS),
            ("fr;q=0.001", .frFR), ("de;level=1;q=0.5, ja;q=0.4", .deDE), ("\u{0}\u{FFFF}🇫🇷", .enUS), ("toolongsubtag-DE", .enUS),
        ] as [(String?, RenderLocale)]
    )
    func negotiation(header: String?, expected: RenderLocale) {
        #expect(RenderLocale.negotiate(acceptLanguage: header) == expected)
    }

    @Test("huge headers are handled with bounded work")
    func hugeHeader() {
        let huge = String(repeating: "xx-YY;q=0.5, ", count: 100_000) + "de"
        #expect(RenderLocale.negotiate(acceptLanguage: huge) == .enUS)
        let early = "ja, " + String(repeating: "a", count: 1_000_000)
        #expect(RenderLocale.negotiate(acceptLanguage: early) == .jaJP)
        // A member longer than any valid one is dropped whole, not parsed from a truncated prefix.
        let padded = "ja;q=0.1, de;q=0.9" + String(repeating: " ", count: 200) + "x"
        #expect(RenderLocale.negotiate(acceptLanguage: padded) == .jaJP)
    }

    @Test("a context built from a header uses the negotiated locale")
    func contextFromHeader() {
        #expect(RenderContext(acceptLanguage: "de-CH, de;q=0.9").locale == .deDE)
        #expect(RenderContext(acceptLanguage: nil).locale == .enUS)
    }
}
