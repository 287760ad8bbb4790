import Foundation
import HTTPTestSupport
import ServerTestSupport
import Testing

/// The change feed bound to a list: each upsert names the row now just before it in that list's
/// order (its sort, filters, search and sections), and a row that left the list is a delete.
@Suite("A list's change feed places each changed row")
struct ChangeFeedPlacementTests {
    static let lists = [
        "/v1/products", "/v1/products?sort=-price", "/v1/products?minPrice=USD:50.00", "/v1/products?q=quokka",
        "/v1/products?sort=price,name&view=table", "/v1/people?group=department", "/v1/people?department={Sales}&group=department",
    ]

    @Test(arguments: lists)
    func everyUpsertNamesTheRowBeforeItAndEveryRowThatLeftIsADelete(list: String) async throws {
        let app = try LiveStoreApplication()
        let list = list.replacingOccurrences(of: "{Sales}", with: try await Self.department("Sales", app))
        let page = try #require(try await fetch(port: app.port, list).json)
        let feed = try #require((page["links"] as? [String: Any])?["changes"] as? String)
        let start = try #require(try await fetch(port: app.port, feed).json)
        let resume = try #require((start["links"] as? [String: Any])?["next"] as? String)
        let written = list.hasPrefix("/v1/products") ? try await Self.writeProducts(app) : try await Self.writePeople(app)

        let answer = try await fetch(port: app.port, resume)
        #expect(answer.status == 200)
        let changes = try #require(answer.json?["changes"] as? [[String: Any]])
        let order = try await Self.walk(app, list)
        #expect(Set(changes.compactMap { $0["id"] as? String }) == written, "\(list): one entry per written item")
        var upserts = 0
        for change in changes {
            let id = try #require(change["id"] as? String)
            guard change["op"] as? String == "upsert" else {
                #expect(!order.contains(id), "\(list): \(id) is a delete but is in the list")
                continue
            }
            upserts += 1
            let index = try #require(order.firstIndex(of: id), "\(list): \(id) is an upsert but not in the list")
            // `after` is present on every upsert: null for the first row.
            #expect(change.keys.contains("after"))
            let after = change["after"] as? String
            #expect(after == (index == 0 ? nil : order[index - 1]), "\(list): \(id) at \(index)")
        }
        #expect(upserts > 0, "\(list): no write landed in the list")
        #expect(changes.count > upserts || list.contains("q="), "\(list): no row left or was deleted")
    }

    @Test func aPageLinksTheFeedOfItsOwnListAChildListsUnderItsParent() async throws {
        let app = try LiveStoreApplication()
        let cases = [
            ("/v1/products?limit=5", "/v1/products/changes"), ("/v1/products?sort=-price&q=lamp&limit=3", "/v1/products/changes?sort=-price&q=lamp"),
            ("/v1/people?group=department", "/v1/people/changes?group=department"),
            ("/v1/products?view=table&minPrice=USD%3A5.00", "/v1/products/changes?minPrice=USD%3A5.00&view=table"),
        ]
        for (list, expected) in cases {
            let links = try #require(try await fetch(port: app.port, list).json?["links"] as? [String: Any])
            #expect(links["changes"] as? String == expected, "\(list)")
            let next = try #require(try await fetch(port: app.port, expected).json?["links"] as? [String: Any])
            #expect((next["next"] as? String)?.hasPrefix(expected + (expected.contains("?") ? "&since=" : "?since=")) == true, "\(list)")
        }
        let track = try #require((try await fetch(port: app.port, "/v1/tracks?limit=1").json?["rows"] as? [[String: Any]])?.first)
        let samples = "/v1/tracks/\(track["id"] as? String ?? "")/samples"
        let child = try #require(try await fetch(port: app.port, samples + "?view=table").json)
        let links = try #require(child["links"] as? [String: Any])
        #expect(links["changes"] as? String == samples + "/changes?view=table")
        let feed = try await fetch(port: app.port, samples + "/changes?view=table")
        #expect(feed.status == 200)
        #expect(((feed.json?["links"] as? [String: Any])?["next"] as? String)?.hasPrefix(samples + "/changes?view=table&since=") == true)
    }

    @Test(arguments: [
        ("cursor=abc", "UNKNOWN_PARAMETER"), ("sort=shoeSize", "INVALID_SORT"), ("group=colour", "INVALID_GROUP"), ("view=grid", "INVALID_VIEW"),
        ("minPrice=cheap", "INVALID_FILTER"), ("limit=0", "INVALID_LIMIT"), ("since=x&since=y", "DUPLICATE_PARAMETER"),
        ("sort=name&sort=price", "DUPLICATE_PARAMETER"), ("typo=1", "UNKNOWN_PARAMETER"),
    ])
    func aFeedNamingNoListOfTheCollectionIs400(query: String, code: String) async throws {
        let app = try LiveStoreApplication()
        let response = try await fetch(port: app.port, "/v1/products/changes?" + query)
        #expect(response.status == 400, "\(query)")
        #expect(response.json?["code"] as? String == code, "\(query)")
    }

    @Test func theLimitCountsChangesAndTheNextLinkKeepsIt() async throws {
        let app = try LiveStoreApplication()
        let start = try #require(try await fetch(port: app.port, "/v1/products/changes?limit=2&sort=-price").json)
        var link = try #require((start["links"] as? [String: Any])?["next"] as? String)
        #expect(link.hasPrefix("/v1/products/changes?sort=-price&limit=2&since="))
        _ = try await Self.writeProducts(app)
        var seen: [String] = []
        for _ in 0..<10 {
            let answer = try #require(try await fetch(port: app.port, link).json)
            let changes = try #require(answer["changes"] as? [[String: Any]])
            #expect(changes.count <= 2)
            seen += changes.compactMap { $0["id"] as? String }
            link = try #require((answer["links"] as? [String: Any])?["next"] as? String)
            if answer["more"] as? Bool != true { break }
        }
        #expect(seen.count == Set(seen).count)
        #expect(seen.count >= 4)
    }

    @Test func renamingAReferencedItemChangesTheReferencesVersionOfListsShowingIt() async throws {
        let app = try LiveStoreApplication()
        func version(_ feed: String) async throws -> String? { try await fetch(port: app.port, feed).json?["referencesVersion"] as? String }
        let people = try await version("/v1/people/changes?group=department")
        let products = try await version("/v1/products/changes")
        let department = try #require((try await fetch(port: app.port, "/v1/departments?limit=1").json?["rows"] as? [[String: Any]])?.first)
        let renamed = try await Self.send(app, "PATCH", try #require(department["detail"] as? String), #"{"name":"Renamed department"}"#)
        #expect(renamed.status == 200)
        #expect(try await version("/v1/people/changes?group=department") != people)
        #expect(try await version("/v1/products/changes") == products)
    }

    // MARK: - Helpers

    /// Creates, edits (into, out of and across the lists' filters, search and order) and deletes
    /// products; returns the ids written.
    static func writeProducts(_ app: LiveStoreApplication) async throws -> Set<String> {
        let rows = try #require(try await fetch(port: app.port, "/v1/products?limit=20").json?["rows"] as? [[String: Any]])
        let details = rows.compactMap { $0["detail"] as? String }
        try #require(details.count == 20)
        var written = Set(rows.enumerated().filter { [2, 4, 9, 12, 6].contains($0.offset) }.compactMap { $0.element["id"] as? String })
        let first = try await send(app, "POST", "/v1/products", #"{"name":"!!! Quokka first","price":{"minorUnits":99999,"currency":"USD"}}"#)
        let passing = try await send(app, "POST", "/v1/products", #"{"name":"Quokka passing","price":{"minorUnits":100,"currency":"USD"}}"#)
        for created in [first, passing] { written.insert(try #require(created.json?["id"] as? String)) }
        _ = try await send(app, "PATCH", try #require(passing.header("Location")), #"{"name":"Passing no more"}"#)
        _ = try await send(app, "PATCH", details[4], #"{"name":"Zzz quokka"}"#)
        _ = try await send(app, "PATCH", details[9], #"{"price":{"minorUnits":1,"currency":"USD"}}"#)
        _ = try await send(app, "PATCH", details[2], #"{"price":{"minorUnits":500000,"currency":"USD"}}"#)
        _ = try await send(app, "PATCH", details[12], #"{"name":"Aaa moved up"}"#)
        _ = try await send(app, "DELETE", details[6], nil)
        return written
    }

    /// Creates, moves between departments, renames and deletes people; returns the ids written.
    static func writePeople(_ app: LiveStoreApplication) async throws -> Set<String> {
        let salesID = try await department("Sales", app)
        let engineeringID = try await department("Engineering", app)
        let sales = try #require(try await fetch(port: app.port, "/v1/people?department=\(salesID)").json?["rows"] as? [[String: Any]])
        let others = try #require(try await fetch(port: app.port, "/v1/people?limit=30").json?["rows"] as? [[String: Any]])
        let outsider = try #require(others.first { row in !sales.contains { $0["id"] as? String == row["id"] as? String } })
        try #require(sales.count >= 3)
        var written = Set([sales[0], sales[1], sales[2], outsider].compactMap { $0["id"] as? String })
        let created = try await send(
            app, "POST", "/v1/people",
            #"{"givenName":"Aaron","familyName":"Aardvark","emailAddress":"a@example.com","phoneNumber":"555-0100","departmentID":"\#(salesID)"}"#)
        #expect(created.status == 201)
        written.insert(try #require(created.json?["id"] as? String))
        _ = try await send(app, "PATCH", try #require(sales[0]["detail"] as? String), #"{"familyName":"Zzyzx"}"#)
        _ = try await send(app, "PATCH", try #require(sales[1]["detail"] as? String), #"{"departmentID":"\#(engineeringID)"}"#)
        _ = try await send(app, "PATCH", try #require(outsider["detail"] as? String), #"{"departmentID":"\#(salesID)"}"#)
        _ = try await send(app, "DELETE", try #require(sales[2]["detail"] as? String), nil)
        return written
    }

    /// The id of the department with this name.
    static func department(_ name: String, _ app: LiveStoreApplication) async throws -> String {
        let rows = try #require(try await fetch(port: app.port, "/v1/departments?limit=100").json?["rows"] as? [[String: Any]])
        return try #require(rows.first { $0["title"] as? String == name }?["id"] as? String)
    }

    static func send(_ app: LiveStoreApplication, _ method: String, _ target: String, _ json: String?) async throws -> HTTPResponse {
        let type = method == "PATCH" ? "application/merge-patch+json" : "application/json"
        let response = try await app.write(method, target, headers: json == nil ? [] : [("Content-Type", type)], body: Array((json ?? "").utf8))
        #expect((200..<300).contains(response.status), "\(method) \(target): \(response.status)")
        return response
    }

    /// The ids of a list, in order, following `links.next`.
    static func walk(_ app: LiveStoreApplication, _ list: String) async throws -> [String] {
        var ids: [String] = []
        var link: String? = list
        while let current = link {
            let json = try #require(try await fetch(port: app.port, current).json)
            if let sections = json["sections"] as? [[String: Any]] {
                ids += sections.flatMap { ($0["rows"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
            } else {
                ids += (json["rows"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            }
            link = (json["links"] as? [String: Any])?["next"] as? String
        }
        return ids
    }
}
