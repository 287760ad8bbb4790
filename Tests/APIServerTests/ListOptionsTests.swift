import Domain
import HTTPServer
import Storage
import Testing

@testable import APIServer

@Suite("List parameters (pure)")
struct ListOptionsTests {
    static let products = CollectionDescriptor.named("products")!
    static let people = CollectionDescriptor.named("people")!

    @Test(arguments: ["1", "50", "200", "007"])
    func acceptedLimits(text: String) throws {
        #expect(try ListOptions.parseLimit(text) == Int(text))
    }

    @Test(arguments: ["0", "-1", "201", "9223372036854775808", "abc", "1e3", "", " 5", "5 ", "+5", "0x10", "1.0", "２"])
    func refusedLimitsAre400InvalidLimit(text: String) {
        #expect(throws: HTTPError.self) { try ListOptions.parseLimit(text) }
        do {
            _ = try ListOptions.parseLimit(text)
        } catch {
            #expect(error.code == "INVALID_LIMIT")
            #expect(error.parameter == "limit")
        }
    }

    @Test func defaultsWhenNothingIsGiven() throws {
        let options = try ListOptions.parse([], for: Self.products)
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
        #expect(try ListOptions.parseSort(text, for: .products) == keys)
    }

    @Test(arguments: ["colour", "", "price,", ",price", "--price", "price,price", "-", "name,-name", "shortDescription"])
    func badSortIs400InvalidSort(text: String) {
        do {
            _ = try ListOptions.parseSort(text, for: .products)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.code == "INVALID_SORT")
        }
    }

    static let refused: [([QueryItem], String, String)] = [
        ([QueryItem(name: "colour", value: "red")], "UNKNOWN_PARAMETER", "colour"),
        ([QueryItem(name: "limit", value: "5"), QueryItem(name: "limit", value: "6")], "DUPLICATE_PARAMETER", "limit"),
        ([QueryItem(name: "view", value: "grid")], "INVALID_VIEW", "view"),
        ([QueryItem(name: "group", value: "department")], "INVALID_GROUP", "group"),
        ([QueryItem(name: "minPrice", value: "-5")], "INVALID_FILTER", "minPrice"),
        ([QueryItem(name: "maxPrice", value: "1e3")], "INVALID_FILTER", "maxPrice"),
        ([QueryItem(name: "department", value: "dep_x")], "UNKNOWN_PARAMETER", "department"),
        ([QueryItem(name: "cursor", value: "")], "INVALID_CURSOR", "cursor"),
        ([QueryItem(name: "q", value: String(repeating: "a", count: 201))], "INVALID_SEARCH", "q"),
    ]

    @Test(arguments: refused)
    func refusedProductParameters(items: [QueryItem], code: String, parameter: String) {
        do {
            _ = try ListOptions.parse(items, for: Self.products)
            Issue.record("accepted \(items)")
        } catch {
            #expect(error.code == code)
            #expect(error.parameter == parameter)
            #expect(error.status == 400)
        }
    }

    @Test func peopleOfferSectionsAndADepartmentFilter() throws {
        let id = "dep_0000000000000000"
        let options = try ListOptions.parse(
            [QueryItem(name: "group", value: "department"), QueryItem(name: "department", value: id)], for: Self.people)
        #expect(options.groupByDepartment)
        #expect(options.filters.count == 1)
        do {
            _ = try ListOptions.parse([QueryItem(name: "department", value: "prd_0000000000000000")], for: Self.people)
            Issue.record("accepted a product id as department")
        } catch {
            #expect(error.code == "INVALID_FILTER")
        }
    }
}
