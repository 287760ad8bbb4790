import Domain
import Yams

/// A money field's `minimum` and `maximum`: amounts per currency in major units, as the currency
/// writes them (`maximum: {EUR: 100000.00, JPY: 10000000}`).
///
/// One plain number would read differently in each currency (10,000,000 minor units is
/// ¥10,000,000 but €100,000), so it is refused, even for a field of one currency: a plain number
/// used to be minor units, and reading it now as major units would widen an old bound a
/// hundredfold without a word. Only 0 may stand alone; it reads alike in every currency.
extension DefinitionChecker {
    /// A bound as the definition gives it: zero for every currency, or amounts per currency.
    enum MoneyBound {
        case everyCurrency(Int64)
        case perCurrency([String: Int64])
    }

    /// Reads both bounds into `rules` (whose `currencies` are read already), then checks each
    /// currency's pair is in order.
    mutating func readMoneyBounds(_ object: Object, into rules: inout FieldRules, what: String) {
        for key in ["minimum", "maximum"] {
            guard let node = object.value(key), let bound = moneyBound(node, key: key, what: what, currencies: rules.currencies) else {
                continue
            }
            switch (key, bound) {
            case ("minimum", .everyCurrency(let amount)): rules.minimum = amount
            case ("minimum", .perCurrency(let amounts)): rules.moneyBounds.minimum = amounts
            case (_, .everyCurrency(let amount)): rules.maximum = amount
            case (_, .perCurrency(let amounts)): rules.moneyBounds.maximum = amounts
            }
        }
        for code in rules.moneyBounds.currencies {
            let (low, high) = rules.moneyRange(in: code)
            guard let low, let high, low > high else { continue }
            report(
                "min-greater-than-max", "`minimum` of \(what) is greater than its `maximum` in \(code): no amount could satisfy both.",
                at: object.value("minimum") ?? object.node)
        }
    }

    private mutating func moneyBound(_ node: Node, key: String, what: String, currencies: [String]?) -> MoneyBound? {
        let place = "`\(key)` of \(what)"
        switch node {
        case .scalar(let scalar) where [.int, .float].contains(node.tagName):
            if case .value(0) = ScalarNumber.scaled(scalar.string, scale: 4) { return .everyCurrency(0) }
            return refuse("ambiguous-money-bound", ambiguity(scalar.string, place: place, key: key, currencies: currencies), at: node)
        case .mapping:
            return amounts(node, place: place, currencies: currencies).map(MoneyBound.perCurrency)
        default:
            return refuseKind(node, place, expected: "a mapping of currency to amount in major units (\(key): {EUR: 100.00}), or 0")
        }
    }

    /// What to write instead of a plain number: the field's currencies (or three common ones)
    /// with the amounts a whole number meant when it was read as minor units, or a fraction as
    /// written where the currency has the digits for it.
    private func ambiguity(_ text: String, place: String, key: String, currencies: [String]?) -> String {
        let examples = (currencies ?? ["USD", "EUR", "JPY"]).prefix(3).compactMap(Currency.init(code:))
        let minor = ScalarNumber.integer(text)
        let amounts = examples.compactMap { currency -> String? in
            let digits = currency.minorUnitDigits
            if let minor { return "\(currency.code): \(DecimalText.plain(minor, scale: digits))" }
            guard case .value(let scaled) = ScalarNumber.scaled(text, scale: digits) else { return nil }
            return "\(currency.code): \(DecimalText.plain(scaled, scale: digits))"
        }
        let head =
            currencies?.count == 1
            ? "\(place) is a plain number, but a money bound names its currency"
            : "\(place) is one number for \(currencies == nil ? "any currency" : "several currencies"), which reads differently in each"
        let before = minor.map { " (what \($0) meant before, when a plain number was minor units)" } ?? ""
        let unbounded = currencies?.count == 1 ? "" : "; a currency left out has no bound there"
        let placeholder = examples.first.map { "\($0.code): 100" + ($0.minorUnitDigits > 0 ? ".00" : "") } ?? "EUR: 100.00"
        let example = "{\(amounts.isEmpty ? placeholder : amounts.joined(separator: ", "))}"
        return "\(head): give an amount per currency in major units, as the currency writes it: `\(key): \(example)`"
            + "\(before)\(unbounded). Only 0 may stand alone."
    }

    /// `{EUR: 100000.00, JPY: 10000000}` in each currency's minor units; nil after any mistake.
    private mutating func amounts(_ node: Node, place: String, currencies: [String]?) -> [String: Int64]? {
        guard let entries = entries(node, place) else { return nil }
        guard !entries.isEmpty else {
            return refuse("empty-bounds", "\(place) is an empty mapping: give an amount per currency ({EUR: 100.00}), or leave it out.", at: node)
        }
        var amounts: [String: Int64] = [:]
        var broken = false
        for entry in entries {
            guard let currency = Currency(code: entry.key) else {
                report(
                    "unknown-currency",
                    "\"\(Self.shortened(entry.key))\" in \(place) is not an ISO 4217 code this server knows (uppercase: USD, EUR, JPY).",
                    at: entry.keyNode)
                broken = true
                continue
            }
            if let currencies, !currencies.contains(currency.code) {
                report(
                    "bound-currency-not-allowed",
                    "\(place) bounds \(currency.code), which the field does not allow; its currencies: \(currencies.joined(separator: ", ")).",
                    at: entry.keyNode)
                broken = true
                continue
            }
            guard let amount = amount(entry.value, "\(place) in \(currency.code)", currency: currency) else {
                broken = true
                continue
            }
            amounts[currency.code] = amount
        }
        return broken ? nil : amounts
    }

    /// An amount in major units with at most the currency's minor-unit digits, in minor units.
    private mutating func amount(_ node: Node, _ what: String, currency: Currency) -> Int64? {
        guard case .scalar(let scalar) = node, [.int, .float].contains(node.tagName) else {
            return refuseKind(node, what, expected: "an amount in major units (100.00)")
        }
        switch ScalarNumber.scaled(scalar.string, scale: currency.minorUnitDigits) {
        case .value(let value):
            return value
        case .notANumber:
            report("bad-value", "\(what) must be an amount in plain decimal notation (100.00), not \(Self.shortened(scalar.string)).", at: node)
        case .tooPrecise:
            let digits = currency.minorUnitDigits == 0 ? "no digits" : EnglishCount.of(currency.minorUnitDigits, "digit")
            report(
                "bad-value",
                "\(what) \(Self.shortened(scalar.string)) has more digits after the decimal point than \(currency.code) has (\(digits)): "
                    + "a bound is in major units, as the currency writes them.", at: node)
        case .tooLarge:
            report("out-of-range", "\(what) \(Self.shortened(scalar.string)) is too large to store.", at: node)
        }
        return nil
    }
}
