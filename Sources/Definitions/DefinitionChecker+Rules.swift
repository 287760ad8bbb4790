import Domain
import Foundation
import Yams

/// A stored field's rules: lengths, pattern, bounds, item counts and currencies, each in the
/// units its type uses, and each pair of bounds in order.
extension DefinitionChecker {
    mutating func readRules(_ object: Object, _ field: inout FieldDraft) {
        let what = field.what
        var rules = field.rules
        let lengths = 0...1_000_000
        rules.maxLength = object.value("maxLength").flatMap { count($0, "`maxLength` of \(what)", in: lengths) }
        rules.minLength = object.value("minLength").flatMap { count($0, "`minLength` of \(what)", in: lengths) }
        rules.maxItems = object.value("maxItems").flatMap { count($0, "`maxItems` of \(what)", in: lengths) }
        rules.minItems = object.value("minItems").flatMap { count($0, "`minItems` of \(what)", in: lengths) }
        if let node = object.value("pattern"), let pattern = string(node, "`pattern` of \(what)") {
            if (try? NSRegularExpression(pattern: pattern)) == nil {
                report(
                    "bad-pattern", "`pattern` of \(what) is not a valid regular expression (ICU syntax): \"\(Self.shortened(pattern))\".",
                    at: node)
            } else {
                rules.pattern = pattern
            }
        }
        // Before the bounds: a money bound may name only the field's currencies.
        if let node = object.value("currencies") { rules.currencies = readCurrencies(node, what: what) }
        if field.type == .money {
            readMoneyBounds(object, into: &rules, what: what)
        } else if let type = field.type {
            rules.minimum = object.value("minimum").flatMap { bound($0, "`minimum` of \(what)", type: type) }
            rules.maximum = object.value("maximum").flatMap { bound($0, "`maximum` of \(what)", type: type) }
        }
        checkOrder(rules.minLength, rules.maxLength, "minLength", "maxLength", object, what)
        checkOrder(rules.minItems, rules.maxItems, "minItems", "maxItems", object, what)
        checkOrder(rules.minimum, rules.maximum, "minimum", "maximum", object, what)
        field.rules = rules
    }

    private mutating func checkOrder<T: Comparable>(_ low: T?, _ high: T?, _ lowKey: String, _ highKey: String, _ object: Object, _ what: String) {
        guard let low, let high, low > high else { return }
        report(
            "min-greater-than-max", "`\(lowKey)` of \(what) is greater than its `\(highKey)`: no value could satisfy both.",
            at: object.value(lowKey) ?? object.node)
    }

    /// A bound in the units the type stores: whole numbers, decimals scaled by 10^scale, days
    /// since 1970-01-01 for dates, Unix milliseconds for date-times (money: ``readMoneyBounds``).
    mutating func bound(_ node: Node, _ what: String, type: FieldType) -> Int64? {
        switch type {
        case .integer:
            return integer(node, what, in: .min ... .max)
        case .decimal(let scale):
            return decimal(node, what, scale: scale)
        case .date:
            guard let text = string(node, what) else { return nil }
            guard let days = DateText.days(text) else {
                return refuse("bad-value", "\(what) must be a real date written YYYY-MM-DD, not \"\(Self.shortened(text))\".", at: node)
            }
            return days
        case .dateTime:
            guard let text = string(node, what) else { return nil }
            guard let instant = DateText.instant(text) else {
                return refuse("bad-value", "\(what) must be an RFC 3339 date-time (2026-11-24T17:00:00Z), not \"\(Self.shortened(text))\".", at: node)
            }
            return instant
        default:
            return nil
        }
    }

    /// A number with at most `scale` fraction digits, scaled by 10^scale.
    mutating func decimal(_ node: Node, _ what: String, scale: Int) -> Int64? {
        guard case .scalar(let scalar) = node, [.int, .float].contains(node.tagName) else {
            return refuseKind(node, what, expected: "a number")
        }
        switch ScalarNumber.scaled(scalar.string, scale: scale) {
        case .value(let value):
            return value
        case .notANumber:
            report("bad-value", "\(what) must be a number in plain decimal notation (12.5), not \(scalar.string).", at: node)
        case .tooPrecise:
            report(
                "bad-value", "\(what) \(scalar.string) has more than \(EnglishCount.of(scale, "digit")) after the decimal point (the field's scale).",
                at: node)
        case .tooLarge:
            report("out-of-range", "\(what) \(Self.shortened(scalar.string)) is too large to store.", at: node)
        }
        return nil
    }

    private mutating func readCurrencies(_ node: Node, what: String) -> [String]? {
        guard let elements = list(node, "`currencies` of \(what)") else { return nil }
        guard !elements.isEmpty else {
            return refuse("empty-list", "`currencies` of \(what) is empty: list the codes allowed, or leave it out to allow any.", at: node)
        }
        var codes: [String] = []
        for element in elements {
            guard let code = string(element, "A currency of \(what)") else { continue }
            if Currency(code: code) == nil {
                report(
                    "unknown-currency",
                    "\"\(Self.shortened(code))\" in `currencies` of \(what) is not an ISO 4217 code this server knows "
                        + "(uppercase: USD, EUR, JPY).", at: element)
            } else if codes.contains(code) {
                report("duplicate-value", "\(code) appears twice in `currencies` of \(what); keep one.", at: element)
            } else {
                codes.append(code)
            }
        }
        return codes.count == elements.count ? codes : nil
    }
}
