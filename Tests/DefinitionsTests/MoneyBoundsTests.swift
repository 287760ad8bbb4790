import Domain
import Testing

@testable import Definitions

/// A money field's bounds per currency: read from a definition in major units, held on writes
/// with the bound as a person reads it, and kept by generated samples.
@Suite("Money bounds per currency")
struct MoneyBoundsTests {
    static func catalog(_ fields: String) throws -> Catalog {
        try DefinitionLoader.load(text: BadDefinition.notes(fields: "      name: {type: text}\n" + fields), file: "money.yaml")
    }

    static func rules(_ field: String) throws -> FieldRules {
        let collection = try #require(try catalog("      price: \(field)").collection(named: "notes"))
        return try #require(collection.fields.first { $0.name == "price" }).rules
    }

    /// (field, the minimum every currency shares, minimum and maximum per currency in minor units).
    static let accepted: [(String, Int64?, [String: Int64], [String: Int64])] = [
        ("{type: money, currencies: [EUR, JPY], maximum: {EUR: 100000.00, JPY: 10000000}}", nil, [:], ["EUR": 10_000_000, "JPY": 10_000_000]),
        ("{type: money, currencies: [EUR], maximum: {EUR: 100000}}", nil, [:], ["EUR": 10_000_000]),
        ("{type: money, currencies: [EUR, JPY], minimum: 0}", 0, [:], [:]),
        ("{type: money, minimum: 0.00, maximum: {KWD: 1.5, EUR: 0.5}}", 0, [:], ["KWD": 1_500, "EUR": 50]),
        ("{type: money, currencies: [USD], minimum: {USD: -5}, maximum: {USD: 5.25}}", nil, ["USD": -500], ["USD": 525]),
        ("{type: money, minimum: {CLF: 0.0001}}", nil, ["CLF": 1], [:]),
    ]

    @Test(arguments: accepted)
    func boundsAreReadPerCurrencyInMinorUnits(field: String, minimum: Int64?, minima: [String: Int64], maxima: [String: Int64]) throws {
        let rules = try Self.rules(field)
        #expect(rules.minimum == minimum)
        #expect(rules.maximum == nil)
        #expect(rules.moneyBounds == MoneyBounds(minimum: minima, maximum: maxima))
    }

    @Test func aCurrencysOwnBoundWinsOverTheSharedZeroAndOthersKeepIt() throws {
        let rules = try Self.rules("{type: money, minimum: 0, maximum: {EUR: 10.00}}")
        let euro = rules.moneyRange(in: "EUR")
        let yen = rules.moneyRange(in: "JPY")
        #expect(euro.minimum == 0 && euro.maximum == 1_000)
        #expect(yen.minimum == 0 && yen.maximum == nil)
    }

    static let writing = try? catalog(
        """
              price: {type: money, currencies: [EUR, JPY, USD], minimum: 0, maximum: {EUR: 100000.00, JPY: 10000000}}
              fee: {type: money, currencies: [EUR, JPY], minimum: {EUR: 0.50, JPY: 50}}
        """)

    /// (the money members written, the problems as pointer and detail).
    static let writes: [(String, [String])] = [
        (#""price":{"minorUnits":10000000,"currency":"EUR"}"#, []),
        (#""price":{"minorUnits":10000001,"currency":"EUR"}"#, ["/price/minorUnits: Must be at most €100,000.00 (minorUnits 10000000)."]),
        (#""price":{"minorUnits":10000000,"currency":"JPY"}"#, []),
        (#""price":{"minorUnits":10000001,"currency":"JPY"}"#, ["/price/minorUnits: Must be at most ¥10,000,000 (minorUnits 10000000)."]),
        (#""price":{"minorUnits":999999999999,"currency":"USD"}"#, []),
        (#""price":{"minorUnits":-1,"currency":"USD"}"#, ["/price/minorUnits: Must not be negative."]),
        (#""price":{"minorUnits":1,"currency":"GBP"}"#, ["/price/currency: Must be one of EUR, JPY, USD."]),
        (
            #""price":{"minorUnits":-1,"currency":"GBP"}"#,
            ["/price/minorUnits: Must not be negative.", "/price/currency: Must be one of EUR, JPY, USD."]
        ),
        (#""fee":{"minorUnits":49,"currency":"EUR"}"#, ["/fee/minorUnits: Must be at least €0.50 (minorUnits 50)."]),
        (#""fee":{"minorUnits":49,"currency":"JPY"}"#, ["/fee/minorUnits: Must be at least ¥50 (minorUnits 50)."]),
        (#""fee":{"minorUnits":50,"currency":"JPY"}"#, []),
        (#""fee":{"minorUnits":-7,"currency":"USD"}"#, ["/fee/currency: Must be one of EUR, JPY."]),
    ]

    @Test(arguments: writes)
    func aWriteIsHeldToItsCurrencysBounds(members: String, problems: [String]) throws {
        let catalog = try #require(Self.writing)
        let notes = try #require(catalog.collection(named: "notes"))
        let id = EntityID(kind: notes.kind, timestampMilliseconds: 1, randomBits: 1)
        let json = try JSONParser.parse(Array(#"{"name":"n",\#(members)}"#.utf8))
        let outcome = ItemDocument.decode(json, in: notes, catalog: catalog, mode: .create(id))
        #expect(outcome.problems.map { "\($0.pointer): \($0.detail)" } == problems)
        #expect((outcome.item == nil) == !problems.isEmpty)
    }

    @Test func samplesStayWithinTheBoundsOfTheirCurrency() throws {
        let catalog = try Self.catalog(
            """
                  price: {type: money, required: true, currencies: [JPY, EUR], minimum: {JPY: 10}, maximum: {JPY: 50}}
                  fee: {type: money, required: true, minimum: 0, maximum: {USD: 0.05, EUR: 0.05, JPY: 5}}
            """)
        var seen = 0
        try SampleGenerator(catalog: catalog, seed: 11, defaultCount: 60).generate { collection, item in
            let price = Self.money(item.value(of: "price", in: collection))
            let fee = Self.money(item.value(of: "fee", in: collection))
            #expect(price?.currency == "JPY")
            #expect((10...50).contains(price?.minorUnits ?? -1), "\(String(describing: price))")
            #expect((0...5).contains(fee?.minorUnits ?? -1), "\(String(describing: fee))")
            seen += 1
        }
        #expect(seen == 60)
    }

    static func money(_ value: FieldValue) -> Money? {
        if case .money(let money) = value { money } else { nil }
    }
}
