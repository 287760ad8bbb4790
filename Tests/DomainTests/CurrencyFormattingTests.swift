import Foundation
import Testing

@testable import Domain

@Suite("Currency formatting")
struct CurrencyFormattingTests {
    // Exact bytes: de-DE and fr-FR put U+00A0 before the symbol and fr-FR groups with U+202F.
    @Test(
        "120 USD and friends in every supported locale",
        arguments: [
            (RenderLocale.enUS, Money(minorUnits: 120_00, currency: "USD"), "$120.00"),
            (.enGB, Money(minorUnits: 120_00, currency: "USD"), "US$120.00"),
            (.deDE, Money(minorUnits: 120_00, currency: "USD"), "120,00\u{00A0}$"),
            (.frFR, Money(minorUnits: 120_00, currency: "USD"), "120,00\u{00A0}$US"),
            (.jaJP, Money(minorUnits: 120_00, currency: "USD"), "$120.00"),
            (.enUS, Money(minorUnits: -1_234_567_89, currency: "USD"), "-$1,234,567.89"),
            (.deDE, Money(minorUnits: -1_234_567_89, currency: "EUR"), "-1.234.567,89\u{00A0}\u{20AC}"),
            (.frFR, Money(minorUnits: 1_234_567_89, currency: "EUR"), "1\u{202F}234\u{202F}567,89\u{00A0}\u{20AC}"),
            (.enGB, Money(minorUnits: 99, currency: "GBP"), "\u{00A3}0.99"),
            (.frFR, Money(minorUnits: 1_234_00, currency: "GBP"), "1\u{202F}234,00\u{00A0}\u{00A3}GB"),
            (.enUS, Money(minorUnits: 1_234, currency: "JPY"), "\u{00A5}1,234"),
            (.enGB, Money(minorUnits: 120, currency: "JPY"), "JP\u{00A5}120"),
            (.deDE, Money(minorUnits: 120, currency: "JPY"), "120\u{00A0}\u{00A5}"),
            (.frFR, Money(minorUnits: 120, currency: "JPY"), "120\u{00A0}JPY"),
            (.jaJP, Money(minorUnits: 120, currency: "JPY"), "\u{00A5}120"),
            (.enUS, Money(minorUnits: 0, currency: "USD"), "$0.00"),
            (.enUS, Money(minorUnits: 1, currency: "USD"), "$0.01"),
            (.enUS, Money(minorUnits: 120_000, currency: "KWD"), "KWD\u{00A0}120.000"),
        ]
    )
    func exactOutput(locale: RenderLocale, money: Money, expected: String) {
        #expect(Array(RenderContext(locale: locale).currency(money).utf8) == Array(expected.utf8))
    }

    @Test("common currencies use the fast path in every locale", arguments: RenderLocale.allCases)
    func commonCurrenciesAreFast(locale: RenderLocale) throws {
        let formatters = LocaleFormatters.shared(for: locale)
        for currency in LocaleFormatters.commonCurrencies {
            #expect(try #require(formatters.currencyFormat(for: currency.code)).isFast)
        }
    }

    @Test("the fast path matches Foundation byte for byte", arguments: RenderLocale.allCases)
    func fastPathMatchesFoundation(locale: RenderLocale) {
        let context = RenderContext(locale: locale)
        let codes = ["USD", "EUR", "GBP", "JPY", "CHF", "KWD", "SEK", "INR", "CNY", "BRL", "CAD", "IQD", "KRW", "CLF"]
        Self.eachAmount(of: codes) { money in
            #expect(context.currency(money) == Self.foundation(money, locale), "\(money.currency) \(money.minorUnits) in \(locale)")
        }
    }

    @Test("every ISO currency matches Foundation", arguments: RenderLocale.allCases)
    func everyCurrencyMatchesFoundation(locale: RenderLocale) {
        let context = RenderContext(locale: locale)
        for currency in Currency.all {
            for minor: Int64 in [0, 7, 120_00, -98_765_43] {
                let money = Money(minorUnits: minor, currency: currency.code)
                #expect(context.currency(money) == Self.foundation(money, locale), "\(currency.code) \(minor) in \(locale)")
            }
        }
    }

    @Test("a code that is not three uppercase letters is shown verbatim after the amount")
    func malformedCode() {
        #expect(Fixtures.enUS.currency(Money(minorUnits: 120_00, currency: "usd")) == "120.00 usd")
        #expect(RenderContext(locale: .deDE).currency(Money(minorUnits: -5, currency: "💶")) == "-0,05 💶")
    }

    @Test("well-formed unknown codes are formatted as Foundation does")
    func unknownCode() {
        let money = Money(minorUnits: 120_00, currency: "ABC")
        #expect(Fixtures.enUS.currency(money) == "ABC\u{00A0}120.00")
        #expect(Fixtures.enUS.currency(money) == Self.foundation(money, .enUS))
    }

    @Test("formatting from many threads at once gives the same text")
    func concurrentFormatting() async {
        let codes = Currency.all.map(\.code)
        let results = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask { codes.map { RenderContext(locale: .frFR).currency(Money(minorUnits: 123_456, currency: $0)) } }
            }
            return await group.reduce(into: [[String]]()) { $0.append($1) }
        }
        #expect(Set(results).count == 1)
    }

    /// 0, 1, 99, 120_00, 1_234_567_89, extremes, their negatives, and seeded random amounts.
    static let amounts: [Int64] = {
        var values: [Int64] = [
            0, 1, 5, 9, 10, 99, 100, 101, 999, 1_000, 1_001, 9_999, 12_000, 99_999, 100_000, 123_456,
            1_234_567, 12_345_678, 1_234_567_89, 1_000_000_000_000, 999_999_999_999_999, .max, .min, .min + 1,
        ]
        values += values.filter { $0 > 0 }.map { -$0 }
        var random = SeededRandom(seed: 2026)
        for _ in 0..<300 {
            let magnitude = Int64(random.next(below: 15))
            var bound: Int64 = 1
            for _ in 0..<magnitude { bound *= 10 }
            values.append(Int64(random.next(below: Int(bound) + 1)) * (random.chance(20) ? -1 : 1))
        }
        return values
    }()

    /// Every amount of ``amounts`` in each currency of `codes`.
    static func eachAmount(of codes: [String], _ body: (Money) -> Void) {
        for code in codes {
            for minor in amounts { body(Money(minorUnits: minor, currency: code)) }
        }
    }

    /// The reference: Foundation's currency style on the exact decimal amount.
    static func foundation(_ money: Money, _ locale: RenderLocale) -> String {
        let digits = Currency(code: money.currency)?.minorUnitDigits ?? 2
        let amount = Decimal(sign: money.minorUnits < 0 ? .minus : .plus, exponent: -digits, significand: Decimal(money.minorUnits.magnitude))
        return amount.formatted(Decimal.FormatStyle.Currency(code: money.currency, locale: locale.foundationLocale))
    }
}

extension CurrencyFormattingTests {
    @Test("unknown codes beyond the cache quota are still formatted exactly")
    func unknownCodesBeyondQuota() {
        let context = RenderContext(locale: .jaJP)
        // "Q.." codes are not ISO 4217; more of them than the cache keeps.
        let letters: [String] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".map(String.init)
        let count = LocaleFormatters.maxUnknownCurrencies + 20
        let codes: [String] = (0..<count).map { (index: Int) -> String in "Q" + letters[index / 26] + letters[index % 26] }
        for code in codes + codes {
            let money = Money(minorUnits: 123_456, currency: code)
            #expect(context.currency(money) == Self.foundation(money, .jaJP), "\(code)")
        }
    }
}

extension CurrencyFormattingTests {
    /// The bytes a list writes per row (`withCurrency`, from the stored code's bytes) are the
    /// bytes `currency(_:)` returns: common codes on the scratch-memory path, the others, an
    /// unknown code and malformed ones through the `String` path.
    @Test("a price written from stored bytes is currency's text", arguments: RenderLocale.allCases)
    func pricesFromStoredBytesAreCurrencysText(locale: RenderLocale) {
        let context = RenderContext(locale: locale)
        let codes = ["USD", "EUR", "GBP", "JPY", "KWD", "IQD", "CHF", "ABC", "usd", "US", "USDX", "", "💶", "U\"D"]
        Self.eachAmount(of: codes) { money in
            var written: [UInt8] = []
            Array(money.currency.utf8).withUnsafeBufferPointer { bytes in
                context.withCurrency(minorUnits: money.minorUnits, currencyUTF8: bytes) { written = Array($0) }
            }
            #expect(written == Array(context.currency(money).utf8), "\(money.currency) \(money.minorUnits) in \(locale)")
        }
    }
}
