import Foundation

/// Every formatter one locale needs, built once per process and shared by all requests.
///
/// The common currencies (USD, EUR, GBP, JPY) are prepared at construction and read without
/// locking; other currencies are prepared on first use and cached behind a lock. The cache is
/// keyed by ISO code, so it holds at most one entry per known currency plus
/// ``maxUnknownCurrencies`` well-formed unknown codes; beyond that, unknown codes are formatted
/// by Foundation on each call rather than growing the cache without bound.
final class LocaleFormatters: Sendable {
    static let commonCurrencies = ["USD", "EUR", "GBP", "JPY"].compactMap(Currency.init(code:))
    static let maxUnknownCurrencies = 64

    let locale: RenderLocale
    let numbers: NumberFormat
    /// Scanned linearly: comparing a few short strings beats hashing one.
    private let commonCodes: [String]
    /// The same codes' three letters packed in an integer, for a code read as bytes.
    private let packedCommonCodes: [UInt32]
    private let commonFormats: [CurrencyFormat]
    private let cache: CurrencyFormatCache

    private init(locale: RenderLocale) {
        self.locale = locale
        let foundationLocale = locale.foundationLocale
        numbers = NumberFormat(locale: foundationLocale)
        commonCodes = Self.commonCurrencies.map(\.code)
        packedCommonCodes = Self.commonCurrencies.map { currency in
            Array(currency.code.utf8).withUnsafeBufferPointer { Self.packed($0) } ?? 0
        }
        commonFormats = Self.commonCurrencies.map { currency in
            CurrencyFormat(code: currency.code, digits: currency.minorUnitDigits, locale: foundationLocale)
        }
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

    /// Calls `body` with the UTF-8 of ``format(_:)`` for an amount whose currency code is
    /// `code`'s bytes (read in place from a stored row): a common currency's price is written
    /// into scratch memory, with no `String` made for the code or the result.
    func withFormatted(minorUnits: Int64, currencyUTF8 code: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if let packed = Self.packed(code), let index = packedCommonCodes.firstIndex(of: packed) {
            return commonFormats[index].withFormatted(minorUnits: minorUnits, body)
        }
        var text = format(Money(minorUnits: minorUnits, currency: String(decoding: code, as: UTF8.self)))
        text.withUTF8(body)
    }

    /// Three bytes as one integer; nil for any other length.
    private static func packed(_ code: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard code.count == 3 else { return nil }
        return UInt32(code[0]) << 16 | UInt32(code[1]) << 8 | UInt32(code[2])
    }

    /// The format for a currency code, or nil when the code is not three uppercase ASCII letters.
    func currencyFormat(for code: String) -> CurrencyFormat? {
        for index in commonCodes.indices where commonCodes[index] == code { return commonFormats[index] }
        guard code.utf8.count == 3, code.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else { return nil }
        if let format = cache.lookup(code) { return format }
        let known = Currency(code: code)
        // Foundation (ICU) shows unknown codes with 2 digits; Money assumes the same.
        let digits = known?.minorUnitDigits ?? 2
        guard known != nil || cache.unknownCount < Self.maxUnknownCurrencies else {
            // Cache full of unknown codes: skip deriving a layout that could not be kept.
            return CurrencyFormat(code: code, digits: digits, locale: locale.foundationLocale, derivingLayout: false)
        }
        let format = CurrencyFormat(code: code, digits: digits, locale: locale.foundationLocale)
        return cache.store(format, for: code, known: known != nil, unknownLimit: Self.maxUnknownCurrencies)
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

    /// Stores `format` unless another thread stored one first or the unknown-code quota is used up;
    /// returns the format to use either way.
    func store(_ format: CurrencyFormat, for code: String, known: Bool, unknownLimit: Int) -> CurrencyFormat {
        lock.withLock {
            if let existing = formats[code] { return existing }
            if !known {
                guard unknown < unknownLimit else { return format }
                unknown += 1
            }
            formats[code] = format
            return format
        }
    }
}
