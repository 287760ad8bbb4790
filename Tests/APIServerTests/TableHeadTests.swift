import Foundation
import HTTPTestSupport
import ServerTestSupport
import Testing

/// A table page's head (its columns with their sort links, and its sort) is kept per query
/// and locale (`TableHeads`): each variant gets its own, and every page of one list the same.
@Suite("Table heads: kept per list and locale, never another list's")
struct TableHeadTests {
    struct Head: Equatable {
        var titles: [String]
        var links: [String]
        var sort: [String]
    }

    static func head(_ port: Int, _ target: String, language: String = "en-US") async throws -> (head: Head, next: String?) {
        let json = try #require(try await fetch(port: port, target, headers: [("Accept-Language", language)]).json)
        let columns = try #require(json["columns"] as? [[String: Any]])
        let links = columns.flatMap { column -> [String] in
            let links = column["links"] as? [String: String] ?? [:]
            return [links["ascending"] ?? "", links["descending"] ?? ""]
        }
        let sort = (json["sort"] as? [[String: String]] ?? []).map { "\($0["column"] ?? "") \($0["order"] ?? "")" }
        let next = (json["links"] as? [String: Any])?["next"] as? String
        return (Head(titles: columns.compactMap { $0["title"] as? String }, links: links, sort: sort), next)
    }

    @Test func eachListAndLocaleHasItsOwnHeadAndEveryPageOfOneTheSame() async throws {
        let app = try LiveStoreApplication()
        let port = app.port
        let four = try await Self.head(port, "/v1/people?view=table&limit=4")
        #expect(four.head.links.contains { $0.contains("limit=4") })
        #expect(!four.head.sort.isEmpty && four.head.sort != ["givenName descending"])

        let five = try await Self.head(port, "/v1/people?view=table&limit=5")
        #expect(five.head.links.allSatisfy { $0.isEmpty || $0.contains("limit=5") })
        #expect(five.head.titles == four.head.titles)

        let sorted = try await Self.head(port, "/v1/people?view=table&limit=4&sort=-givenName")
        #expect(sorted.head.sort == ["givenName descending"])
        #expect(sorted.head.links == four.head.links, "sort links start a list sorted otherwise: the same")

        let german = try await Self.head(port, "/v1/people?view=table&limit=4", language: "de-DE")
        #expect(german.head.titles != four.head.titles)
        #expect(german.head.links == four.head.links)

        let next = try #require(four.next)
        let second = try await Self.head(port, next)
        #expect(second.head == four.head)
        let again = try await Self.head(port, "/v1/people?view=table&limit=4")
        #expect(again.head == four.head)
    }
}
