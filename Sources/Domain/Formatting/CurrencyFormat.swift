import Foundation

/// How one currency is formatted in one locale: the fast integer layout, or Foundation itself.
///
/// Built once per (locale, currency). The layout is derived from Foundation's output and then
/// checked against Foundation on a set of amounts; only a layout that reproduces Foundation
/// byte for byte is used. Anything else — a locale with unusual grouping, a currency whose
/// CLDR digits differ from ISO 4217 (IQD shows 0 digits, not 3) — stays on Foundation's
/// `Decimal.FormatStyle.Currency`, which is exact but costs microseconds per call.
/// A class: the request path hands it around by reference, never copying the style.
final class CurrencyFormat: Sendable {
    /// Amounts the derived layout must reproduce exactly before it is trusted (minor units).
    static let verificationAmounts: [Int64] = [
        0, 1, 5, 99, 100, 1_234, 12_000, 100_000, 1_234_567, -1, -12_000, 987_654_321_012, Int64.max, Int64.min,
    ]

    /// The verified fast layout, or nil when Foundation formats every amount.
    let layout: DecimalLayout?
    let style: Decimal.FormatStyle.Currency
    /// Digits of the minor unit: ISO 4217's, or 2 for unknown codes (as Foundation assumes).
    let fractionDigits: Int

    /// Prepares the format; with `derivingLayout` false it skips the probing and always uses Foundation.
    init(code: String, digits: Int, locale: Locale, derivingLayout: Bool = true) {
        let style = Decimal.FormatStyle.Currency(code: code, locale: locale)
        self.style = style
        fractionDigits = digits
        guard derivingLayout else {
            layout = nil
            return
        }
        let fraction = String("891234".prefix(digits))
        let probe = Decimal(string: "1234567" + (fraction.isEmpty ? "" : "." + fraction)) ?? 0
        let candidate = DecimalLayout.derive(
            positive: probe.formatted(style),
            negative: (-probe).formatted(style),
            integerDigits: "1234567",
            fractionDigits: fraction
        )
        layout = candidate.flatMap { candidate in
            let trusted = Self.verificationAmounts.allSatisfy {
                Self.format($0, layout: candidate, digits: digits) == Self.foundationFormat($0, style: style, digits: digits)
            }
            return trusted ? candidate : nil
        }
    }

    /// Whether this format uses the derived integer layout (tests assert it for common currencies).
    var isFast: Bool { layout != nil }

    func format(minorUnits: Int64) -> String {
        guard let layout else { return Self.foundationFormat(minorUnits, style: style, digits: fractionDigits) }
        return Self.format(minorUnits, layout: layout, digits: fractionDigits)
    }

    /// Calls `body` with the UTF-8 of ``format(minorUnits:)``; with the fast layout the bytes
    /// are written into scratch memory, no `String` made (a row's price written into a body).
    func withFormatted(minorUnits: Int64, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard let layout else {
            var text = Self.foundationFormat(minorUnits, style: style, digits: fractionDigits)
            return text.withUTF8(body)
        }
        let (integerPart, fraction) = Self.split(minorUnits.magnitude, digits: fractionDigits)
        layout.withFormatted(negative: minorUnits < 0, integerPart: integerPart, fraction: fraction, fractionDigits: fractionDigits, body)
    }

    private static func format(_ minorUnits: Int64, layout: DecimalLayout, digits: Int) -> String {
        let (integerPart, fraction) = split(minorUnits.magnitude, digits: digits)
        return layout.format(negative: minorUnits < 0, integerPart: integerPart, fraction: fraction, fractionDigits: digits)
    }

    /// Major and minor units of a magnitude with `digits` minor-unit digits. Two digits (most
    /// currencies) divide by a constant, which compiles to a multiplication.
    private static func split(_ magnitude: UInt64, digits: Int) -> (integerPart: UInt64, fraction: UInt64) {
        if digits == 2 { return (magnitude / 100, magnitude % 100) }
        var scale: UInt64 = 1
        for _ in 0..<digits { scale *= 10 }
        return (magnitude / scale, magnitude % scale)
    }

    private static func foundationFormat(_ minorUnits: Int64, style: Decimal.FormatStyle.Currency, digits: Int) -> String {
        let amount = Decimal(sign: minorUnits < 0 ? .minus : .plus, exponent: -digits, significand: Decimal(minorUnits.magnitude))
        return amount.formatted(style)
    }
}
