extension BadDefinition {
    /// Money bounds: amounts per currency in major units; one plain number (but 0) is ambiguous.
    static let money: [BadDefinition] = [
        .init(
            "one plain money bound for several currencies",
            notes(fields: "      name: {type: text}\n      price: {type: money, currencies: [USD, EUR, JPY], maximum: 10000}"),
            "ambiguous-money-bound", 8, 66, "`maximum: {USD: 100.00, EUR: 100.00, JPY: 10000}`"),
        .init(
            "one plain money bound for any currency", notes(fields: "      name: {type: text}\n      price: {type: money, minimum: 500}"),
            "ambiguous-money-bound", 8, 37, "one number for any currency"),
        .init(
            "a plain fraction as a money bound",
            notes(fields: "      name: {type: text}\n      price: {type: money, currencies: [EUR, JPY], maximum: 99.5}"),
            "ambiguous-money-bound", 8, 61, "`maximum: {EUR: 99.50}`"),
        .init(
            "a plain fraction finer than the only currency",
            notes(fields: "      name: {type: text}\n      price: {type: money, currencies: [JPY], maximum: 99.5}"),
            "ambiguous-money-bound", 8, 56, "`maximum: {JPY: 100}`"),
        .init(
            "a plain money bound for one currency",
            notes(fields: "      name: {type: text}\n      price: {type: money, currencies: [EUR], maximum: 10000}"),
            "ambiguous-money-bound", 8, 56, "`maximum: {EUR: 100.00}`"),
        .init(
            "a money bound in a currency the field does not allow",
            notes(fields: "      name: {type: text}\n      price: {type: money, currencies: [USD, EUR], maximum: {EUR: 5.00, JPY: 100}}"),
            "bound-currency-not-allowed", 8, 73, "bounds JPY, which the field does not allow; its currencies: USD, EUR"),
        .init(
            "a money bound finer than a currency without minor units",
            notes(fields: "      name: {type: text}\n      price: {type: money, maximum: {JPY: 100.5}}"),
            "bad-value", 8, 43, "than JPY has (no digits)"),
        .init(
            "a money bound finer than its currency", notes(fields: "      name: {type: text}\n      price: {type: money, minimum: {EUR: 0.001}}"),
            "bad-value", 8, 43, "than EUR has (2 digits)"),
        .init(
            "a money bound in an unknown currency", notes(fields: "      name: {type: text}\n      price: {type: money, maximum: {EURO: 100}}"),
            "unknown-currency", 8, 38, "\"EURO\" in `maximum`"),
        .init(
            "empty money bounds", notes(fields: "      name: {type: text}\n      price: {type: money, maximum: {}}"),
            "empty-bounds", 8, 37, "an empty mapping"),
        .init(
            "a money bound as text", notes(fields: "      name: {type: text}\n      price: {type: money, maximum: lots}"),
            "wrong-kind", 8, 37, "or 0"),
        .init(
            "a money bound as an amount of text", notes(fields: "      name: {type: text}\n      price: {type: money, maximum: {EUR: lots}}"),
            "wrong-kind", 8, 43, "an amount in major units"),
        .init(
            "a money minimum above its maximum in one currency",
            notes(fields: "      name: {type: text}\n      price: {type: money, minimum: {EUR: 10, JPY: 1}, maximum: {EUR: 5, JPY: 1}}"),
            "min-greater-than-max", 8, 37, "in EUR"),
        .init(
            "a zero minimum above a negative maximum",
            notes(fields: "      name: {type: text}\n      price: {type: money, minimum: 0, maximum: {USD: -1.00}}"),
            "min-greater-than-max", 8, 37, "in USD"),
        .init(
            "a money default above its currency's maximum",
            notes(fields: "      name: {type: text}\n      price: {type: money, maximum: {EUR: 10.00}, default: {minorUnits: 1001, currency: EUR}}"),
            "bad-default", 8, 60, "above the field's `maximum` in EUR"),
    ]
}
