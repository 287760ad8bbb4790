/// A money field's bounds per currency, each in that currency's minor units.
///
/// One number cannot bound several currencies: 10,000,000 minor units is ¥10,000,000 but
/// €100,000. A definition writes `maximum: {EUR: 100000.00, JPY: 10000000}` in major units, and
/// a currency it does not name has no bound on that side.
public struct MoneyBounds: Sendable, Hashable {
    /// Minor units by ISO 4217 code.
    public var minimum: [String: Int64]
    public var maximum: [String: Int64]

    public init(minimum: [String: Int64] = [:], maximum: [String: Int64] = [:]) {
        self.minimum = minimum
        self.maximum = maximum
    }

    /// The codes with a bound on either side, in code order (messages and documents list them
    /// the same way every time).
    public var currencies: [String] { Set(minimum.keys).union(maximum.keys).sorted() }
}

extension FieldRules {
    /// A money field's bounds in `currency`, in its minor units: the currency's own where the
    /// definition gives one, else the bound every currency shares (``minimum``/``maximum``).
    public func moneyRange(in currency: String) -> (minimum: Int64?, maximum: Int64?) {
        (moneyBounds.minimum[currency] ?? minimum, moneyBounds.maximum[currency] ?? maximum)
    }
}
