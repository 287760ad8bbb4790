import Foundation
import Testing

@testable import Domain

@Suite("Number formatting")
struct NumberFormattingTests {
    @Test(
        "integers and levels in every supported locale",
        arguments: [
            (RenderLocale.enUS, "4,990", "0.57", "-1,234.50"),
            (.enGB, "4,990", "0.57", "-1,234.50"),
            (.deDE, "4.990", "0,57", "-1.234,50"),
            (.frFR, "4\u{202F}990", "0,57", "-1\u{202F}234,50"),
            (.jaJP, "4,990", "0.57", "-1,234.50"),
        ]
    )
    func exactOutput(locale: RenderLocale, timestamp: String, level: String, negative: String) {
        let context = RenderContext(locale: locale)
        #expect(Array(context.integer(4_990).utf8) == Array(timestamp.utf8))
        #expect(context.decimal(0.5678) == level)
        #expect(Array(context.decimal(-1_234.5).utf8) == Array(negative.utf8))
    }

    @Test("every supported locale has verified fast number layouts", arguments: RenderLocale.allCases)
    func numbersAreFast(locale: RenderLocale) {
        #expect(LocaleFormatters.shared(for: locale).numbers.isFast)
    }

    @Test("integers match Foundation", arguments: RenderLocale.allCases)
    func integersMatchFoundation(locale: RenderLocale) {
        let context = RenderContext(locale: locale)
        let style = IntegerFormatStyle<Int64>.number.locale(locale.foundationLocale)
        var values: [Int64] = [0, 1, -1, 9, 10, 999, 1_000, -1_000, 12_345, 999_999, 1_000_000, .max, .min, .min + 1]
        var random = SeededRandom(seed: 5)
        for _ in 0..<500 { values.append(Int64(bitPattern: random.next()) >> Int64(random.next(below: 63))) }
        for value in values {
            #expect(context.integer(value) == value.formatted(style), "\(value) in \(locale)")
        }
    }

    @Test("decimals match Foundation, including rounding ties, signs and non-finite values", arguments: RenderLocale.allCases)
    func decimalsMatchFoundation(locale: RenderLocale) {
        let context = RenderContext(locale: locale)
        var values: [Double] = [
            0, -0.0, 0.5, 0.125, 0.375, 2.675, 1.005, 0.285, 0.295, -0.005, -0.004, 0.005, 0.015, 0.025, 999.995, 1e-7,
            1_234_567.891, 0.1 + 0.2, 1e15, 1e20, -1e20, .nan, .infinity, -.infinity, .ulpOfOne, .leastNonzeroMagnitude,
            .greatestFiniteMagnitude,
        ]
        values += (-2_000...2_000).map { Double($0) / 1_000 }
        var random = SeededRandom(seed: 11)
        for _ in 0..<2_000 { values.append((random.nextUnit() - 0.5) * pow(10, Double(random.next(below: 12)) - 3)) }
        for digits in [0, 2, 3] {
            let style = FloatingPointFormatStyle<Double>.number.precision(.fractionLength(digits)).locale(locale.foundationLocale)
            for value in values {
                #expect(context.decimal(value, fractionDigits: digits) == value.formatted(style), "\(value) (\(digits)) in \(locale)")
            }
        }
    }

    /// What a table writes in place must be what the String path makes, byte for byte.
    @Test("numbers and integers written in place are the strings' bytes", arguments: RenderLocale.allCases)
    func writtenInPlaceMatchesTheStrings(locale: RenderLocale) {
        let context = RenderContext(locale: locale)
        let formatter = FieldFormatter(context: context)
        let doubles: [Double] = [0, -0.0, 0.5, 2.675, 1.005, -0.004, 999.995, 1_234_567.891, 1e15, .nan, -.infinity, 0.25, -98_765.4321]
        for digits in [0, 2, 6] {
            for value in doubles {
                let written = Self.written(room: 64) { formatter.writeNumber(value, type: .numbers(fractionDigits: digits), into: $0) }
                // nil: Foundation's case, which the caller writes from the String.
                if let written { #expect(written == formatter.number(value, type: .numbers(fractionDigits: digits)), "\(value) (\(digits)) in \(locale)") }
            }
        }
        for value: Int64 in [0, 7, -1, 1_234, 1_000_000, .max, .min] {
            for type: FieldType in [.integer, .text, .decimal(scale: 2), .dateTime] {
                let written = Self.written(room: 64) { formatter.write(.integer(value), as: type, into: $0) }
                switch type {
                case .decimal, .dateTime: #expect(written == nil, "\(type) is not written in place")
                default: #expect(written == formatter.format(.integer(value), as: type), "\(value) as \(type) in \(locale)")
                }
            }
        }
        #expect(Self.written(room: 64) { formatter.write(.text("12"), as: .integer, into: $0) } == nil)
        #expect(Self.written(room: 3) { formatter.write(.integer(1_000_000), as: .integer, into: $0) } == nil, "too long for the room: nothing")
    }

    private static func written(room: Int, _ write: (UnsafeMutableBufferPointer<UInt8>) -> Int?) -> String? {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: room)
        defer { buffer.deallocate() }
        guard let count = write(buffer) else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    @Test("fraction digits outside 0...6 are clamped")
    func fractionDigitsClamped() {
        #expect(Fixtures.enUS.decimal(1.5, fractionDigits: -3) == "2")
        #expect(Fixtures.enUS.decimal(0.25, fractionDigits: 40) == "0.250000")
    }
}
