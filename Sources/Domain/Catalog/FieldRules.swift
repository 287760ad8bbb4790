/// What a written value must satisfy beyond its type; a write that breaks a rule is a 422
/// naming the field.
public struct FieldRules: Sendable, Hashable {
    /// Present, not null, and for text not blank (not only whitespace).
    public var required: Bool
    /// Text: the most Unicode scalars (JSON Schema counts the same way); names: per name.
    public var maxLength: Int?
    /// Text: the fewest Unicode scalars.
    public var minLength: Int?
    /// Text: a regular expression the whole value must match (ICU syntax, as JSON Schema's `pattern`
    /// but anchored).
    public var pattern: String?
    /// Integer, decimal (in its own units, scaled), date (days), date-time (milliseconds). Money: a
    /// bound every currency shares, in minor units; a definition gives only 0 here, the one amount
    /// that reads alike in every currency (``moneyBounds`` holds the others).
    public var minimum: Int64?
    public var maximum: Int64?
    /// Numbers and names: how many entries.
    public var minItems: Int?
    public var maxItems: Int?
    /// Money: the currencies allowed; nil for any ISO 4217 code the server knows.
    public var currencies: [String]?
    /// Money: bounds per currency (``moneyRange(in:)`` combines them with ``minimum``/``maximum``).
    public var moneyBounds: MoneyBounds

    public init(
        required: Bool = false, maxLength: Int? = nil, minLength: Int? = nil, pattern: String? = nil, minimum: Int64? = nil,
        maximum: Int64? = nil, minItems: Int? = nil, maxItems: Int? = nil, currencies: [String]? = nil, moneyBounds: MoneyBounds = MoneyBounds()
    ) {
        self.required = required
        self.maxLength = maxLength
        self.minLength = minLength
        self.pattern = pattern
        self.minimum = minimum
        self.maximum = maximum
        self.minItems = minItems
        self.maxItems = maxItems
        self.currencies = currencies
        self.moneyBounds = moneyBounds
    }
}
