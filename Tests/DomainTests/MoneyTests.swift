import Foundation
import Testing

@testable import Domain

@Suite("Money and Currency")
struct MoneyTests {
    @Test(
        "minor-unit digits follow ISO 4217",
        arguments: [("USD", 2), ("EUR", 2), ("GBP", 2), ("JPY", 0), ("KRW", 0), ("KWD", 3), ("BHD", 3), ("CLF", 4), ("CHF", 2)]
    )
    func minorUnitDigits(code: String, digits: Int) throws {
        #expect(try #require(Currency(code: code)).minorUnitDigits == digits)
    }

    @Test("unknown or malformed currency codes are detectable", arguments: ["ABC", "usd", "US", "USDD", "", "XXX", "XAU", "€"])
    func unknownCurrency(code: String) {
        #expect(Currency(code: code) == nil)
        #expect(Money(minorUnits: 1, currency: code).currencyInfo == nil)
    }

    @Test("the table holds the active ISO codes, sorted and unique")
    func tableIsSortedAndUnique() {
        let codes = Currency.all.map(\.code)
        #expect(codes == codes.sorted())
        #expect(Set(codes).count == codes.count)
        #expect(codes.count > 150)
        #expect(codes.allSatisfy { $0.utf8.count == 3 && $0.utf8.allSatisfy { (0x41...0x5A).contains($0) } })
    }

    @Test(
        "percent increases round half away from zero in minor units",
        arguments: [
            (Int64(20_00), Int64(15), Int64(23_00)), (20_00, 20, 24_00), (50_00, 15, 57_50), (50_00, 20, 60_00),
            (75_00, 15, 86_25), (75_00, 20, 90_00), (10, 15, 12), (30, 15, 35), (1, 20, 1), (3, 15, 3), (-10, 15, -12),
            (0, 15, 0), (120_00, 15, 138_00),
        ]
    )
    func percentIncrease(minor: Int64, percent: Int64, expected: Int64) {
        #expect(Money(minorUnits: minor, currency: "USD").increased(byPercent: percent) == Money(minorUnits: expected, currency: "USD"))
    }

    @Test("a percent increase that overflows is nil instead of a trap")
    func percentIncreaseOverflow() {
        #expect(Money(minorUnits: .max, currency: "USD").increased(byPercent: 15) == nil)
        #expect(Money(minorUnits: 1, currency: "USD").increased(byPercent: .max) == nil)
    }

    @Test("decimal amount uses the currency's digits")
    func decimalAmount() {
        #expect(Money(minorUnits: 120_00, currency: "USD").decimalAmount == Decimal(120))
        #expect(Money(minorUnits: 120, currency: "JPY").decimalAmount == Decimal(120))
        #expect(Money(minorUnits: -1_500, currency: "KWD").decimalAmount == Decimal(string: "-1.5"))
    }

    @Test("money encodes with camelCase keys")
    func moneyCoding() throws {
        let data = try JSONEncoder().encode(Money(minorUnits: 120_00, currency: "USD"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["minorUnits"] as? Int == 12_000)
        #expect(object["currency"] as? String == "USD")
    }
}

extension Money {
    /// The amount in major units as an exact `Decimal` (unknown currencies assume 2 digits).
    var decimalAmount: Decimal {
        let digits = currencyInfo?.minorUnitDigits ?? 2
        return Decimal(sign: minorUnits < 0 ? .minus : .plus, exponent: -digits, significand: Decimal(minorUnits.magnitude))
    }
}
