/// An amount of money as integer minor units of an ISO 4217 currency: 120 USD is `12000`/`"USD"`.
///
/// Integers keep arithmetic exact (no binary floating point) and make formatting a matter of
/// integer division. The currency stays a plain code so stored data with an unknown code still
/// decodes; ``currencyInfo`` tells whether the code is known.
public struct Money: Hashable, Sendable, Codable {
    public var minorUnits: Int64
    /// ISO 4217 code, uppercase, e.g. `USD`.
    public var currency: String

    public init(minorUnits: Int64, currency: String) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// The ISO table entry for ``currency``; nil means the code is unknown.
    public var currencyInfo: Currency? { Currency(code: currency) }

    /// The amount as the server's own messages write it: problem details and the OpenAPI
    /// document are English, so en-US (`€100,000.00`, `¥10,000,000`) whatever the request's locale.
    public var messageText: String { LocaleFormatters.shared(for: .enUS).format(self) }

    /// The amount increased by `percent` percent, rounded half away from zero in minor units.
    ///
    /// This is how the tip columns are computed: 0.10 USD + 15 % = 11.5 cents → 0.12 USD.
    /// Returns nil when the result would not fit in `Int64` (amounts beyond ~7.6 × 10^16
    /// minor units), so callers can show an unavailable cell instead of trapping.
    public func increased(byPercent percent: Int64) -> Money? {
        let (factor, factorOverflow) = percent.addingReportingOverflow(100)
        let (scaled, overflow) = minorUnits.multipliedReportingOverflow(by: factor)
        guard !factorOverflow, !overflow else { return nil }
        var quotient = scaled / 100
        let remainder = scaled % 100
        if remainder >= 50 { quotient += 1 } else if remainder <= -50 { quotient -= 1 }
        return Money(minorUnits: quotient, currency: currency)
    }
}
