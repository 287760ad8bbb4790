import Foundation

/// How one currency is formatted in one locale: the fast integer layout, or Foundation itself.
///
/// Built once per (locale, currency). The layout is derived from Foundation's output and then
/// checked against Foundation on a set of amounts; only a layout that reproduces Foundation
/// byte for byte is used. Anything else — a locale with unusual grouping, a currency whose
/// CLDR digits differ from ISO 4217 (IQD shows 0 digits, not 3) — stays on Foundation's
/// `Decimal.FormatStyle.Currency`, which is exact but costs microseconds per call.
enum CurrencyFormat: Sendable {
    case layout(DecimalLayout, fractionDigits: Int)
    case foundation(Decimal.FormatStyle.Currency, fractionDigits: Int)

    /// Amounts the derived layout must reproduce exactly before it is trusted (minor units).
    static let verificationAmounts: [Int64] = [0, 1, 5, 99, 100, 1_234, 12_000, 100_000, 1_234_567, -1, -12_000, 987_654_321_012, Int64.max, Int64.min]

    init(code: String, digits: Int, locale: Locale) {
        let style = Decimal.FormatStyle.Currency(code: code, locale: locale)
        let fraction = String("891234".prefix(digits))
        let probe = Decimal(string: "1234567" + (fraction.isEmpty ? "" : "." + fraction)) ?? 0
        let candidate = DecimalLayout.derive(
            positive: probe.formatted(style),
            negative: (-probe).formatted(style),
            integerDigits: "1234567",
            fractionDigits: fraction
        )
        if let candidate {
            let fast = CurrencyFormat.layout(candidate, fractionDigits: digits)
            let reference = CurrencyFormat.foundation(style, fractionDigits: digits)
            if Self.verificationAmounts.allSatisfy({ fast.format(minorUnits: $0) == reference.format(minorUnits: $0) }) {
                self = fast
                return
            }
        }
        self = .foundation(style, fractionDigits: digits)
    }

    /// Whether this format uses the derived integer layout (tests assert it for common currencies).
    var isFast: Bool {
        if case .layout = self { return true }
        return false
    }

    func format(minorUnits: Int64) -> String {
        switch self {
        case .layout(let layout, let digits):
            var scale: UInt64 = 1
            for _ in 0..<digits { scale *= 10 }
            let magnitude = minorUnits.magnitude
            return layout.format(
                negative: minorUnits < 0,
                integerPart: magnitude / scale,
                fraction: magnitude % scale,
                fractionDigits: digits
            )
        case .foundation(let style, let digits):
            let amount = Decimal(sign: minorUnits < 0 ? .minus : .plus, exponent: -digits, significand: Decimal(minorUnits.magnitude))
            return amount.formatted(style)
        }
    }
}
