import Domain
import Foundation
import HTTPTestSupport
import ServerTestSupport
import Storage
import Testing

@Suite("List routes over HTTP and a real SQLite file")
struct ListRouteTests {
    static let rowKeys: Set<String> = ["id", "title", "subtitle", "trailing", "image", "detail"]

    @Test func pageHasRowsOfConstantShapeAndTheHeadersOfARefreshableList() async throws {
        let app = try LiveStoreApplication()
        let response = try await fetch(port: app.port, "/v1/products")
        #expect(response.status == 200)
        let json = try #require(response.json)
        let rows = try #require(json["rows"] as? [[String: Any]])
        #expect(rows.count == 50)
        for row in rows { #expect(Set(row.keys) == Self.rowKeys) }
        #expect(json["limit"] as? Int == 50)
        #expect(json["next"] is String)
        #expect(json["empty"] is NSNull)
        #expect(response.header("ETag")?.hasPrefix("\"l") == true)
        #expect(response.header("Cache-Control") == "no-cache")
        #expect(response.header("Content-Language") == "en-US")
        #expect(response.header("Vary")?.contains("Accept-Language") == true)
        let link = try #require(response.header("Link"))
        #expect(link.hasPrefix("</v1/products?cursor="))
        #expect(link.hasSuffix(">; rel=\"next\""))
        let detail = try #require(rows.first?["detail"] as? String)
        #expect(detail == "/v1/products/\(rows.first?["id"] as? String ?? "")")
    }

    @Test func rowsOfPeopleCarryThePhoneImageAndNullTrailing() async throws {
        let app = try LiveStoreApplication()
        let json = try #require(try await fetch(port: app.port, "/v1/people?limit=5").json)
        let rows = try #require(json["rows"] as? [[String: Any]])
        for row in rows {
            #expect(row["image"] as? String == "phone")
            #expect(row["trailing"] is NSNull)
            #expect(Set(row.keys) == Self.rowKeys)
        }
    }

    static let locales: [(String?, String, String)] = [
        (nil, "en-US", "$120.00"), ("en-US", "en-US", "$120.00"), ("de-DE,de;q=0.9", "de-DE", "120,00\u{00A0}$"),
        ("fr", "fr-FR", "120,00\u{00A0}$US"), ("ja-JP", "ja-JP", "$120.00"), ("en-GB", "en-GB", "US$120.00"), ("tlh", "en-US", "$120.00"),
    ]

    @Test(arguments: locales)
    func theSeedKeyboardRowIsFormattedInTheRequestsLocale(acceptLanguage: String?, locale: String, price: String) async throws {
        let app = try LiveStoreApplication()
        let headers = acceptLanguage.map { [("Accept-Language", $0)] } ?? []
        let response = try await fetch(port: app.port, "/v1/products?q=keyboard&limit=200", headers: headers)
        #expect(response.header("Content-Language") == locale)
        let rows = try #require(response.json?["rows"] as? [[String: Any]])
        let keyboard = try #require(rows.first { $0["title"] as? String == "Keyboard" })
        #expect(keyboard["subtitle"] as? String == "Mechanical")
        #expect(keyboard["trailing"] as? String == price)
    }

    @Test func walkingAllPagesReturnsEveryRowOnceInTheStoresOrder() async throws {
        let app = try LiveStoreApplication()
        for (path, sort) in [
            ("/v1/products?limit=200", nil), ("/v1/products?limit=150&sort=-price,name", "-price,name"), ("/v1/people?limit=33", nil),
        ] {
            let ids = try await walk(port: app.port, path)
            #expect(Set(ids).count == ids.count, "\(path) repeated a row")
            let collection = try app.store.definition(path.contains("people") ? "people" : "products")
            let keys = try sort.map { try ListOptionsForTests.sortKeys($0) }
            let expected = try allIDs(app.store, CatalogQuery(collection: collection, sort: keys, limit: 200))
            #expect(ids == expected, "\(path) differs from the store's order")
        }
    }

    @Test func aChangedLimitWithAValidCursorIsHonoured() async throws {
        let app = try LiveStoreApplication()
        let first = try #require(try await fetch(port: app.port, "/v1/products?limit=10").json)
        let cursor = try #require(first["next"] as? String)
        let second = try #require(try await fetch(port: app.port, "/v1/products?limit=25&cursor=\(cursor)").json)
        #expect((second["rows"] as? [Any])?.count == 25)
        #expect(second["limit"] as? Int == 25)
    }

    static let badRequests: [(String, String, String)] = [
        ("/v1/products?limit=0", "INVALID_LIMIT", "limit"), ("/v1/products?limit=-1", "INVALID_LIMIT", "limit"),
        ("/v1/products?limit=201", "INVALID_LIMIT", "limit"), ("/v1/products?limit=9223372036854775808", "INVALID_LIMIT", "limit"),
        ("/v1/products?limit=abc", "INVALID_LIMIT", "limit"), ("/v1/products?limit=1e3", "INVALID_LIMIT", "limit"),
        ("/v1/products?limit=", "INVALID_LIMIT", "limit"), ("/v1/products?cursor=garbage", "INVALID_CURSOR", "cursor"),
        ("/v1/products?sort=colour", "INVALID_SORT", "sort"), ("/v1/products?sort=-price,price", "INVALID_SORT", "sort"),
        ("/v1/products?colour=red", "UNKNOWN_PARAMETER", "colour"), ("/v1/people?group=team", "INVALID_GROUP", "group"),
        ("/v1/articles?view=table", "INVALID_VIEW", "view"), ("/v1/people?department=nope", "INVALID_FILTER", "department"),
        ("/v1/products/changes?since=garbage", "INVALID_TOKEN", "since"), ("/v1/products/changes?bogus=1", "UNKNOWN_PARAMETER", "bogus"),
    ]

    @Test(arguments: badRequests)
    func badParametersAre400NamingTheParameter(target: String, code: String, parameter: String) async throws {
        let app = try LiveStoreApplication()
        let response = try await fetch(port: app.port, target)
        #expect(response.status == 400)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.json?["code"] as? String == code)
        #expect(response.json?["parameter"] as? String == parameter)
    }

    @Test func aCursorUsedWithOtherParametersIsRefused() async throws {
        let app = try LiveStoreApplication()
        let first = try #require(try await fetch(port: app.port, "/v1/products?limit=10").json)
        let cursor = try #require(first["next"] as? String)
        for other in ["sort=-name", "q=key", "view=table", "minPrice=USD:5"] {
            let response = try await fetch(port: app.port, "/v1/products?limit=10&\(other)&cursor=\(cursor)")
            #expect(response.json?["code"] as? String == "INVALID_CURSOR", "\(other)")
        }
        let people = try await fetch(port: app.port, "/v1/people?cursor=\(cursor)")
        #expect(people.json?["code"] as? String == "INVALID_CURSOR")
        let truncated = try await fetch(port: app.port, "/v1/products?limit=10&cursor=\(cursor.dropLast(4))")
        #expect(truncated.json?["code"] as? String == "INVALID_CURSOR")
    }

    static let searches: [(String, String)] = [("jose", "José"), ("JOSÉ", "José"), ("MECH", "Mechanical"), ("keyb", "Keyboard")]

    @Test(arguments: searches)
    func searchIgnoresCaseAndDiacritics(query: String, expected: String) async throws {
        let app = try LiveStoreApplication()
        let collection = expected == "José" ? "people" : "products"
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
        let json = try #require(try await fetch(port: app.port, "/v1/\(collection)?q=\(encoded)&limit=200").json)
        let rows = try #require(json["rows"] as? [[String: Any]])
        #expect(!rows.isEmpty)
        let shown = rows.flatMap { [$0["title"] as? String ?? "", $0["subtitle"] as? String ?? ""] }
        #expect(shown.contains { $0.contains(expected) }, "\(query) did not find \(expected)")
    }

    @Test func aSearchWithoutResultsCarriesTheSearchEmptyState() async throws {
        let app = try LiveStoreApplication()
        let json = try #require(try await fetch(port: app.port, "/v1/products?q=zzqqxx").json)
        #expect((json["rows"] as? [Any])?.isEmpty == true)
        #expect(json["next"] is NSNull)
        let empty = try #require(json["empty"] as? [String: Any])
        #expect(empty["title"] as? String == "No Results for \u{201C}zzqqxx\u{201D}")
        #expect(empty["image"] as? String == "magnifyingglass")
    }

    @Test func anEmptyCollectionCarriesItsEmptyState() async throws {
        let app = try LiveStoreApplication(seedDemoData: false)
        let json = try #require(try await fetch(port: app.port, "/v1/products").json)
        #expect((json["rows"] as? [Any])?.isEmpty == true)
        let empty = try #require(json["empty"] as? [String: Any])
        #expect(empty["title"] as? String == "No Products")
    }

    @Test func filtersNarrowTheList() async throws {
        let app = try LiveStoreApplication()
        let departments = try #require(try await fetch(port: app.port, "/v1/departments?limit=200").json?["rows"] as? [[String: Any]])
        let sales = try #require(departments.first { $0["title"] as? String == "Sales" }?["id"] as? String)
        let people = try await walk(port: app.port, "/v1/people?department=\(sales)&limit=200")
        let peopleDefinition = try app.store.definition("people")
        let departmentField = try #require(peopleDefinition.fieldIndex(named: "departmentID"))
        let expected = try allIDs(
            app.store,
            CatalogQuery(
                collection: peopleDefinition,
                conditions: [
                    FieldCondition(field: departmentField, operation: .equals, values: [.reference(try #require(EntityID(parsing: sales)))])
                ],
                limit: 200))
        #expect(people == expected)
        #expect(!people.isEmpty)
        // Money bounds take a currency and keep to it: USD:100.00 never lets ¥1,000 through.
        let cheap = try await walk(port: app.port, "/v1/products?maxPrice=USD:100.00&limit=200")
        let products = try app.store.definition("products")
        let price = try #require(products.fieldIndex(named: "price"))
        let cheapExpected = try allIDs(
            app.store,
            CatalogQuery(
                collection: products,
                conditions: [FieldCondition(field: price, operation: .atMost, values: [.money(Money(minorUnits: 10_000, currency: "USD"))])],
                limit: 200))
        #expect(!cheap.isEmpty)
        #expect(cheap == cheapExpected)
    }
}

/// Follows `next` cursors from `path` to the end; the ids in order.
func walk(port: Int, _ path: String, headers: [(String, String)] = []) async throws -> [String] {
    var ids: [String] = []
    var target: String? = path
    var pages = 0
    while let current = target, pages < 1_000 {
        let json = try #require(try await fetch(port: port, current, headers: headers).json, "no JSON from \(current)")
        if let rows = json["rows"] as? [[String: Any]] {
            ids += rows.compactMap { $0["id"] as? String }
        } else if let sections = json["sections"] as? [[String: Any]] {
            ids += sections.flatMap { ($0["rows"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
        }
        target = (json["links"] as? [String: Any])?["next"] as? String
        pages += 1
    }
    return ids
}

/// Every id of a query, in the store's own order.
func allIDs(_ store: any ItemStore, _ query: CatalogQuery) throws -> [String] {
    var query = query
    var ids: [String] = []
    while true {
        let page = try store.page(query)
        ids += page.items.map(\.item.id.rawValue)
        guard let next = page.nextAfter else { return ids }
        query.after = next
    }
}

enum ListOptionsForTests {
    static func sortKeys(_ text: String) throws -> [SortKey] {
        text.split(separator: ",").map { part in
            part.hasPrefix("-") ? SortKey(String(part.dropFirst()), descending: true) : SortKey(String(part))
        }
    }
}
