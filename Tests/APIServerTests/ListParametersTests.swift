import Definitions
import Domain
import HTTPServer
import Storage
import Testing

@testable import APIServer

@Suite("List parameters (pure)", .runsOnce("no store"))
struct ListParametersTests {
    let catalog: Catalog
    let products: CollectionDefinition
    let people: CollectionDefinition

    init() throws {
        catalog = try DefinitionLoader.demo()
        products = try #require(catalog.collection(named: "products"))
        people = try #require(catalog.collection(named: "people"))
    }

    @Test(arguments: ["1", "50", "200", "007"])
    func acceptedLimits(text: String) throws {
        #expect(try ListParameters.parseLimit(text, max: 200) == Int(text))
    }

    @Test(arguments: ["0", "-1", "201", "9223372036854775808", "abc", "1e3", "", " 5", "5 ", "+5", "0x10", "1.0", "２"])
    func refusedLimitsAre400InvalidLimit(text: String) {
        #expect(throws: HTTPError.self) { try ListParameters.parseLimit(text, max: 200) }
        do {
            _ = try ListParameters.parseLimit(text, max: 200)
        } catch {
            #expect(error.code == "INVALID_LIMIT")
            #expect(error.parameter == "limit")
        }
    }

    @Test func defaultsWhenNothingIsGiven() throws {
        let options = try ListParameters.parse([], for: products, catalog: catalog)
        #expect(options.limit == 50)
        #expect(options.sort == [SortKey("name")])
        #expect(options.view == .rows)
        #expect(options.cursor == nil)
    }

    static let sorts: [(String, [SortKey])] = [
        ("price", [SortKey("price")]),
        ("-price,name", [SortKey("price", descending: true), SortKey("name")]),
        ("-name", [SortKey("name", descending: true)]),
    ]

    @Test(arguments: sorts)
    func sortExpressions(text: String, keys: [SortKey]) throws {
        #expect(try ListParameters.parseSort(text, for: products) == keys)
    }

    @Test(arguments: ["colour", "", "price,", ",price", "--price", "price,price", "-", "name,-name", "shortDescription"])
    func badSortIs400InvalidSort(text: String) {
        do {
            _ = try ListParameters.parseSort(text, for: products)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.code == "INVALID_SORT")
        }
    }

    /// A sort is named apart from its field (`timestamp: timestampMilliseconds`): the field's name
    /// is refused, and the answer names the sort to use; a field no sort reads gets no such hint.
    @Test(arguments: [
        ("timestampMilliseconds", "the sort by the field 'timestampMilliseconds' is named 'timestamp'"),
        ("-timestampMilliseconds", "named 'timestamp'"),
        ("levels", nil),
    ])
    func aSortAddressedByItsFieldsNameNamesTheSort(text: String, hint: String?) throws {
        let samples = try #require(catalog.collection(named: "samples"))
        do {
            _ = try ListParameters.parseSort(text, for: samples)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.code == "INVALID_SORT")
            #expect(error.detail.contains("sortable: timestamp."))
            #expect(error.detail.contains("Sorts go by their names") == (hint != nil))
            if let hint { #expect(error.detail.contains(hint), "\(error.detail)") }
        }
    }

    static let refused: [([QueryItem], String, String)] = [
        ([QueryItem(name: "colour", value: "red")], "UNKNOWN_PARAMETER", "colour"),
        ([QueryItem(name: "limit", value: "5"), QueryItem(name: "limit", value: "6")], "DUPLICATE_PARAMETER", "limit"),
        ([QueryItem(name: "view", value: "grid")], "INVALID_VIEW", "view"),
        ([QueryItem(name: "group", value: "department")], "INVALID_GROUP", "group"),
        ([QueryItem(name: "minPrice", value: "-5")], "INVALID_FILTER", "minPrice"),
        ([QueryItem(name: "maxPrice", value: "1e3")], "INVALID_FILTER", "maxPrice"),
        ([QueryItem(name: "maxPrice", value: "1000")], "INVALID_FILTER", "maxPrice"),
        ([QueryItem(name: "minPrice", value: "XXX:10")], "INVALID_FILTER", "minPrice"),
        ([QueryItem(name: "minPrice", value: "JPY:10.5")], "INVALID_FILTER", "minPrice"),
        ([QueryItem(name: "department", value: "dep_x")], "UNKNOWN_PARAMETER", "department"),
        ([QueryItem(name: "cursor", value: "")], "INVALID_CURSOR", "cursor"),
        ([QueryItem(name: "q", value: String(repeating: "a", count: 201))], "INVALID_SEARCH", "q"),
        // 60 letters with four marks each: 60 Characters, 300 code points (the document's maxLength counts points).
        ([QueryItem(name: "q", value: String(repeating: "e\u{301}\u{302}\u{303}\u{304}", count: 60))], "INVALID_SEARCH", "q"),
    ]

    @Test(arguments: refused)
    func refusedProductParameters(items: [QueryItem], code: String, parameter: String) {
        do {
            _ = try ListParameters.parse(items, for: products, catalog: catalog)
            Issue.record("accepted \(items)")
        } catch {
            #expect(error.code == code)
            #expect(error.parameter == parameter)
            #expect(error.status == 400)
        }
    }

    @Test func peopleOfferSectionsAndADepartmentFilter() throws {
        let id = "dep_0000000000000000"
        let options = try ListParameters.parse(
            [QueryItem(name: "group", value: "department"), QueryItem(name: "department", value: id)], for: people, catalog: catalog)
        #expect(options.sections)
        #expect(options.filters.count == 1)
        do {
            _ = try ListParameters.parse([QueryItem(name: "department", value: "prd_0000000000000000")], for: people, catalog: catalog)
            Issue.record("accepted a product id as department")
        } catch {
            #expect(error.code == "INVALID_FILTER")
        }
    }

    /// Money filters take a currency and an amount in major units and keep to that currency.
    @Test(arguments: [("USD:100.00", 10_000, "USD"), ("USD:100", 10_000, "USD"), ("JPY:10000", 10_000, "JPY"), ("EUR:0.5", 50, "EUR")])
    func moneyFiltersReadACurrencyAndAnAmount(text: String, minor: Int64, currency: String) throws {
        let options = try ListParameters.parse([QueryItem(name: "minPrice", value: text)], for: products, catalog: catalog)
        #expect(options.filters.first?.condition.values == [.money(Money(minorUnits: minor, currency: currency))])
        #expect(options.filters.first?.condition.operation == .atLeast)
    }
}
