/// Everything row mapping needs to format values for one request, resolved once per request.
///
/// Creating a context is cheap — it picks the locale's shared, pre-built formatters — so the
/// API layer makes one per request (from `Accept-Language`) and passes it to every row it maps.
/// No formatter is ever built per row.
public struct RenderContext: Sendable {
    public let locale: RenderLocale
    let formatters: LocaleFormatters

    public init(locale: RenderLocale) {
        self.locale = locale
        formatters = LocaleFormatters.shared(for: locale)
    }

    /// The context for the locale negotiated from an `Accept-Language` header.
    public init(acceptLanguage: String?) {
        self.init(locale: RenderLocale.negotiate(acceptLanguage: acceptLanguage))
    }

    /// `money` as currency in this locale: 120 USD is `$120.00` in en-US, `120,00 $` in de-DE.
    public func currency(_ money: Money) -> String {
        formatters.format(money)
    }

    /// Calls `body` with the UTF-8 of ``currency(_:)`` for `minorUnits` of the currency whose
    /// code is `currencyUTF8`: the same bytes, without making the code or the result a `String`
    /// for the common currencies (a list writing a price per row straight into its body).
    /// Not generic: a generic function of another module runs unspecialized, with its type's
    /// metadata looked up per call (that cost more than the formatting it saved).
    public func withCurrency(minorUnits: Int64, currencyUTF8: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        formatters.withFormatted(minorUnits: minorUnits, currencyUTF8: currencyUTF8, body)
    }

    /// An integer with this locale's grouping: `5,000` in en-US, `5.000` in de-DE.
    public func integer(_ value: Int64) -> String {
        formatters.numbers.format(value)
    }

    /// Writes the UTF-8 of ``integer(_:)`` at the start of `buffer` without making a `String`:
    /// how many bytes, or nil (nothing written) when only ``integer(_:)`` can make it.
    public func writeInteger(_ value: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        formatters.numbers.write(value, into: buffer)
    }

    /// A number with exactly `fractionDigits` fraction digits (0...6), rounded as Foundation does.
    public func decimal(_ value: Double, fractionDigits: Int = 2) -> String {
        formatters.numbers.format(value, fractionDigits: fractionDigits)
    }

    /// Writes the UTF-8 of ``decimal(_:fractionDigits:)`` at the start of `buffer` without making
    /// a `String`: how many bytes, or nil (nothing written) when only ``decimal(_:fractionDigits:)``
    /// can make it or it does not fit.
    public func writeDecimal(_ value: Double, fractionDigits: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        formatters.numbers.write(value, fractionDigits: fractionDigits, into: buffer)
    }

    /// A count of days in this locale's words: `1 day`/`5 days`, `1 Tag`/`5 Tage`, `1 jour`/`2 jours`
    /// (French keeps 0 and 1 singular), `5日`; the number grouped as integers are.
    public func days(_ count: Int64) -> String {
        let number = integer(count)
        switch locale.language {
        case "de": return number + (count == 1 || count == -1 ? " Tag" : " Tage")
        case "fr": return number + (count.magnitude <= 1 ? " jour" : " jours")
        case "ja": return number + "日"
        default: return number + (count == 1 || count == -1 ? " day" : " days")
        }
    }
}
