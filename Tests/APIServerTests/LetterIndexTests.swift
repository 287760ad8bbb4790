import Domain
import Foundation
import HTTPTestSupport
import Testing

/// The letter index of a list in text order: each first letter (folded, so "Ärger" files under
/// A as a German reader expects), how many rows start with it, and the link that opens the list
/// at its first row.
@Suite("Letter index")
struct LetterIndexTests {
    let server: CatalogTestServer

    init() async throws {
        server = try CatalogTestServer.tickets()
    }

    static let words = ["printer", "Network", "invoice", "laptop", "Ärger", "über", "Öl", "access", "zebra", "Émile", "42 boxes"]

    func seed(_ random: inout SeededRandom, count: Int) async throws {
        for _ in 0..<count {
            let subject = "\(Self.words[random.next(below: Self.words.count)]) \(random.next(below: 100))"
            let status = ["open", "pending", "solved", "closed"][random.next(below: 4)]
            _ = try await server.create(
                "tickets", #"{"subject":"\#(subject)","status":"\#(status)","priority":\#(1 + random.next(below: 4)),"opened":"2026-11-02"}"#)
        }
    }

    /// Every row title of a list, walking its pages from `start`.
    func titles(from start: String) async throws -> [String] {
        var titles: [String] = []
        var link: String? = start
        while let target = link {
            let json = try #require(try await server.get(target).json, "\(target)")
            titles += (json["rows"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
            link = (json["links"] as? [String: Any])?["next"] as? String
        }
        return titles
    }

    static func letter(of title: String) -> String {
        String(title.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).prefix(1)).uppercased()
    }

    @Test(arguments: [
        "/v1/tickets?sort=subject", "/v1/tickets?sort=-subject", "/v1/tickets?sort=subject&status=open,pending", "/v1/tickets?sort=subject&q=er",
    ])
    func eachLetterCountsItsRowsAndOpensTheListAtIt(list: String) async throws {
        var random = SeededRandom(seed: UInt64(list.count))
        try await seed(&random, count: 40)
        let page = try #require(try await server.get(list + "&limit=5").json)
        let index = try #require((page["links"] as? [String: Any])?["index"] as? String)
        let answer = try await server.get(index)
        #expect(answer.status == 200, "\(answer.text)")
        let letters = try #require(answer.json?["letters"] as? [[String: Any]])
        let all = try await titles(from: list + "&limit=7")
        // The letters in the list's order, each once, counting what a full walk shows.
        let expected = all.map(Self.letter).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        #expect(letters.map { $0["letter"] as? String ?? "" } == expected, "\(list)")
        #expect(letters.contains { $0["letter"] as? String == "A" } == all.contains { Self.letter(of: $0) == "A" })
        for entry in letters {
            let letter = entry["letter"] as? String ?? ""
            let count = (entry["count"] as? [String: Any])?["value"] as? Int
            #expect(count == all.filter { Self.letter(of: $0) == letter }.count, "\(list): \(letter)")
            // The link opens the list at the letter's first row: from there on, the rest of the walk.
            let link = try #require(entry["link"] as? String)
            let from = try await titles(from: link)
            let first = try #require(all.firstIndex { Self.letter(of: $0) == letter })
            #expect(from == Array(all[first...]), "\(list): \(letter)")
        }
    }

    @Test func aListNotInTextOrderHasNoIndex() async throws {
        var random = SeededRandom(seed: 3)
        try await seed(&random, count: 3)
        for list in ["/v1/tickets", "/v1/tickets?sort=priority", "/v1/tickets?sort=subject&group=status"] {
            let page = try #require(try await server.get(list).json)
            #expect((page["links"] as? [String: Any])?["index"] is NSNull, "\(list)")
        }
        let cases: [(String, String)] = [
            ("/v1/tickets/index", "NO_LETTER_INDEX"), ("/v1/tickets/index?sort=subject&group=status", "NO_LETTER_INDEX"),
            ("/v1/tickets/index?sort=subject&cursor=abc", "UNKNOWN_PARAMETER"), ("/v1/tickets/index?sort=nothing", "INVALID_SORT"),
        ]
        for (target, code) in cases {
            let answer = try await server.get(target)
            #expect(answer.status == 400, "\(target): \(answer.text)")
            #expect(answer.json?["code"] as? String == code, "\(target)")
        }
        #expect(try await server.get("/v1/nothing/index?sort=subject").status == 404)
    }

    @Test func anUnchangedIndexAnswers304() async throws {
        var random = SeededRandom(seed: 4)
        try await seed(&random, count: 5)
        let first = try await server.get("/v1/tickets/index?sort=subject")
        let tag = try #require(first.header("ETag"))
        let again = try await server.send("GET", "/v1/tickets/index?sort=subject", headers: [("If-None-Match", tag)])
        #expect(again.status == 304)
        try await seed(&random, count: 1)
        #expect(try await server.send("GET", "/v1/tickets/index?sort=subject", headers: [("If-None-Match", tag)]).status == 200)
    }
}
