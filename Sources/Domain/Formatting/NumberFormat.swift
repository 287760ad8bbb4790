import Foundation

/// Plain number formatting for one locale: integers (timestamps) and fixed-fraction decimals (levels).
///
/// Like ``CurrencyFormat``, layouts are derived from Foundation and verified before use. Integers
/// are always exact. A `Double` is rounded with integer arithmetic unless it lies within a few
/// ulps of a rounding tie: Foundation (ICU) rounds the shortest decimal spelling half-to-even,
/// and only near a tie can that differ from rounding the binary value, so those values — and
/// non-finite or huge ones — go to Foundation's `FloatingPointFormatStyle` instead.
/// A class, so the request path never copies the styles it holds.
final class NumberFormat: Sendable {
    static let maxFractionDigits = 6
    /// 10 to the power of 0...maxFractionDigits.
    private static let scales: [UInt64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    let integerLayout: DecimalLayout?
    let decimalLayout: DecimalLayout?
    let integerStyle: IntegerFormatStyle<Int64>
    /// One style per fraction length 0...maxFractionDigits.
    let decimalStyles: [FloatingPointFormatStyle<Double>]

    init(locale: Locale) {
        let integerStyle = IntegerFormatStyle<Int64>.number.locale(locale)
        let decimalStyles = (0...Self.maxFractionDigits).map {
            FloatingPointFormatStyle<Double>.number.precision(.fractionLength($0)).locale(locale)
        }
        self.integerStyle = integerStyle
        self.decimalStyles = decimalStyles
        let integer = DecimalLayout.derive(
            positive: Int64(1_234_567).formatted(integerStyle),
            negative: Int64(-1_234_567).formatted(integerStyle),
            integerDigits: "1234567",
            fractionDigits: ""
        )
        let decimal = DecimalLayout.derive(
            positive: 1_234_567.89.formatted(decimalStyles[2]),
            negative: (-1_234_567.89).formatted(decimalStyles[2]),
            integerDigits: "1234567",
            fractionDigits: "89"
        )
        integerLayout = integer.flatMap { layout in
            let sample: [Int64] = [0, 7, 1_234, -1, -98_765, 1_000_000, Int64.max, Int64.min]
            let trusted = sample.allSatisfy { Self.format($0, layout: layout) == $0.formatted(integerStyle) }
            return trusted ? layout : nil
        }
        decimalLayout = decimal.flatMap { layout in
            let sample: [(Double, Int)] = [(0, 2), (0.5, 2), (-0.01, 2), (1_234.5, 2), (-98_765.4321, 3), (42, 0), (0.000_001, 6)]
            let trusted = sample.allSatisfy { value, digits in
                Self.format(value, fractionDigits: digits, layout: layout) == value.formatted(decimalStyles[digits])
            }
            return trusted ? layout : nil
        }
    }

    /// Whether both layouts were derived and verified (tests assert it for every supported locale).
    var isFast: Bool { integerLayout != nil && decimalLayout != nil }

    func format(_ value: Int64) -> String {
        guard let integerLayout else { return value.formatted(integerStyle) }
        return Self.format(value, layout: integerLayout)
    }

    /// Writes the UTF-8 of ``format(_:)-(Int64)`` at the start of `buffer`: how many bytes, or nil
    /// (nothing written) without a verified layout or when they do not fit.
    func write(_ value: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        integerLayout?.write(negative: value < 0, integerPart: value.magnitude, fraction: 0, fractionDigits: 0, into: buffer)
    }

    /// `value` with exactly `fractionDigits` digits (clamped to 0...6), grouped per locale.
    func format(_ value: Double, fractionDigits: Int) -> String {
        let digits = min(max(fractionDigits, 0), Self.maxFractionDigits)
        if let decimalLayout, let fast = Self.format(value, fractionDigits: digits, layout: decimalLayout) {
            return fast
        }
        return value.formatted(decimalStyles[digits])
    }

    private static func format(_ value: Int64, layout: DecimalLayout) -> String {
        layout.format(negative: value < 0, integerPart: value.magnitude, fraction: 0, fractionDigits: 0)
    }

    /// Writes the UTF-8 of ``format(_:fractionDigits:)`` at the start of `buffer` on the fast
    /// path, no `String` made: how many bytes, or nil (nothing written) when the value needs
    /// Foundation or does not fit.
    func write(_ value: Double, fractionDigits: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        let digits = min(max(fractionDigits, 0), Self.maxFractionDigits)
        guard let decimalLayout, let parts = Self.parts(value, fractionDigits: digits) else { return nil }
        return decimalLayout.write(negative: parts.negative, integerPart: parts.integerPart, fraction: parts.fraction, fractionDigits: digits, into: buffer)
    }

    /// The fast path, or nil when the value needs Foundation (see the type's comment).
    private static func format(_ value: Double, fractionDigits: Int, layout: DecimalLayout) -> String? {
        guard let parts = parts(value, fractionDigits: fractionDigits) else { return nil }
        return layout.format(negative: parts.negative, integerPart: parts.integerPart, fraction: parts.fraction, fractionDigits: fractionDigits)
    }

    /// `value` rounded to `fractionDigits` with integer arithmetic: its sign, integer part and
    /// fraction digits; nil when it needs Foundation.
    private static func parts(_ value: Double, fractionDigits: Int) -> (negative: Bool, integerPart: UInt64, fraction: UInt64)? {
        guard value.isFinite, fractionDigits >= 0, fractionDigits <= maxFractionDigits else { return nil }
        let scale = scales[fractionDigits]
        let scaled = value.magnitude * Double(scale)
        guard scaled < 1e15 else { return nil }
        let whole = scaled.rounded(.down)
        let fraction = scaled - whole
        // The binary value, its scaling and its shortest spelling differ by a few ulps at most.
        let tieWindow = 4 * max(scaled.ulp, value.magnitude.ulp * Double(scale))
        guard abs(fraction - 0.5) > tieWindow else { return nil }
        let rounded = UInt64(whole) + (fraction > 0.5 ? 1 : 0)
        return (value.sign == .minus, rounded / scale, rounded % scale)
    }
}
