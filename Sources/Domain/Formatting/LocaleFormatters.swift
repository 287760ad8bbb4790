import Foundation

/// Every formatter one locale needs, built once per process and shared by all requests.
///
/// The common currencies (USD, EUR, GBP, JPY) are prepared at construction and read without
/// locking; other currencies are prepared on first use and cached behind a lock. The cache is
/// keyed by ISO code, so it holds at most one entry per known currency plus
/// ``maxUnknownCurrencies`` well-formed unknown codes; beyond that, unknown codes are formatted
/// by Foundation on each call rather than growing the cache without bound.
final class LocaleFormatters: Sendable {
    static let commonCurrencies: [Currency] = [.usd, .eur, .gbp, .jpy]
    static let maxUnknownCurrencies = 64

    let locale: RenderLocale
    let numbers: NumberFormat
    private let common: [String: CurrencyFormat]
    private let cache: CurrencyFormatCache

    private init(locale: RenderLocale) {
        self.locale = locale
        let foundationLocale = locale.foundationLocale
        numbers = NumberFormat(locale: foundationLocale)
        var common: [String: CurrencyFormat] = [:]
        for currency in Self.commonCurrencies {
            common[currency.code] = CurrencyFormat(code: currency.code, digits: currency.minorUnitDigits, locale: foundationLocale)
        }
        self.common = common
        cache = CurrencyFormatCache()
    }

    // One lazily initialised (thread-safe) instance per locale, so a process pays for a locale
    // only when a request asks for it.
    private static let enUS = LocaleFormatters(locale: .enUS)
    private static let enGB = LocaleFormatters(locale: .enGB)
    private static let deDE = LocaleFormatters(locale: .deDE)
    private static let frFR = LocaleFormatters(locale: .frFR)
    private static let jaJP = LocaleFormatters(locale: .jaJP)

    static func shared(for locale: RenderLocale) -> LocaleFormatters {
        switch locale {
        case .enUS: enUS
        case .enGB: enGB
        case .deDE: deDE
        case .frFR: frFR
        case .jaJP: jaJP
        }
    }

    func format(_ money: Money) -> String {
        guard let format = currencyFormat(for: money.currency) else {
            // Not an ISO-shaped code: show the number and the code verbatim rather than
            // letting Foundation guess.
            return numbers.format(Double(money.minorUnits) / 100, fractionDigits: 2) + " " + money.currency
        }
        return format.format(minorUnits: money.minorUnits)
    }

    /// The format for a currency code, or nil when the code is not three uppercase ASCII letters.
    func currencyFormat(for code: String) -> CurrencyFormat? {
        if let format = common[code] { return format }
        guard code.utf8.count == 3, code.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else { return nil }
        if let format = cache.lookup(code) { return format }
        let known = Currency(code: code)
        // Foundation (ICU) shows unknown codes with 2 digits; Money assumes the same.
        let format = CurrencyFormat(code: code, digits: known?.minorUnitDigits ?? 2, locale: locale.foundationLocale)
        if known != nil || cache.unknownCount < Self.maxUnknownCurrencies {
            cache.store(format, for: code, known: known != nil)
        }
        return format
    }
}

/// The lock-protected part of ``LocaleFormatters``.
///
/// `@unchecked Sendable` because every access to the dictionary goes through `lock`.
final class CurrencyFormatCache: @unchecked Sendable {
    private let lock = NSLock()
    private var formats: [String: CurrencyFormat] = [:]
    private var unknown = 0

    func lookup(_ code: String) -> CurrencyFormat? {
        lock.withLock { formats[code] }
    }

    var unknownCount: Int { lock.withLock { unknown } }

    func store(_ format: CurrencyFormat, for code: String, known: Bool) {
        lock.withLock {
            if formats.updateValue(format, forKey: code) == nil && !known { unknown += 1 }
        }
    }
}
