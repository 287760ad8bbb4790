import Domain
import Foundation
import HTTPTestSupport
import Testing

/// `count=exact|estimated`: a page's `total` and each section's `count` are the whole list's,
/// whatever the page; the list's feed carries them too, so a client that reads only the feed
/// shows the numbers a fresh read shows. Random tickets and random writes, both stores.
@Suite("List totals")
struct ListTotalsTests {
    let server: CatalogTestServer

    init() async throws {
        server = try CatalogTestServer.tickets()
    }

    static let statuses = ["open", "pending", "solved", "closed"]

    func createTicket(_ random: inout SeededRandom) async throws -> String {
        let words = ["printer", "network", "invoice", "laptop", "access"]
        let subject = "\(words[random.next(below: words.count)]) \(random.next(below: 1_000))"
        return try await server.create(
            "tickets",
            #"{"subject":"\#(subject)","status":"\#(Self.statuses[random.next(below: 4)])","priority":\#(1 + random.next(below: 4)),"opened":"2026-11-0\#(1 + random.next(below: 9))"}"#
        )
    }

    /// Random writes: creates, status changes (a row moves between sections), deletes.
    func write(_ random: inout SeededRandom, ids: inout [String], count: Int) async throws {
        for _ in 0..<count {
            switch random.next(below: 3) {
            case 0: ids.append(try await createTicket(&random))
            case 1 where !ids.isEmpty:
                let id = ids[random.next(below: ids.count)]
                let patched = try await server.send(
                    "PATCH", "/v1/tickets/\(id)", json: "{\"status\":\"\(Self.statuses[random.next(below: 4)])\"}",
                    headers: [("Content-Type", "application/merge-patch+json")])
                #expect(patched.status == 200, "\(patched.text)")
            default:
                guard !ids.isEmpty else { continue }
                let id = ids.remove(at: random.next(below: ids.count))
                #expect(try await server.send("DELETE", "/v1/tickets/\(id)").status == 204)
            }
        }
    }

    /// Every page of `start`: the ids per section id ("" for an unsectioned list), the totals
    /// every page said, and each section's counts as pages said them.
    func walk(_ start: String) async throws -> (rows: [String: [String]], totals: Set<String>, counts: [String: Set<String>]) {
        var rows: [String: [String]] = [:]
        var totals = Set<String>()
        var counts: [String: Set<String>] = [:]
        var link: String? = start
        while let target = link {
            let answer = try await server.get(target)
            let json = try #require(answer.json, "\(target): \(answer.text)")
            totals.insert(Self.describe(json["total"]))
            if let sections = json["sections"] as? [[String: Any]] {
                for section in sections {
                    let id = section["id"] as? String ?? "?"
                    rows[id, default: []] += (section["rows"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                    counts[id, default: []].insert(Self.describe(section["count"]))
                }
            } else {
                rows["", default: []] += (json["rows"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            }
            link = (json["links"] as? [String: Any])?["next"] as? String
        }
        return (rows, totals, counts)
    }

    static func describe(_ total: Any?) -> String {
        guard let total = total as? [String: Any] else { return "none" }
        return "\(total["value"] as? Int ?? -1)/\(total["exact"] as? Bool == true ? "exact" : "estimated")"
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func anExactTotalEqualsAFullWalkAndTheSectionsAddUpToIt(seed number: UInt64) async throws {
        var random = SeededRandom(seed: number)
        var ids: [String] = []
        for _ in 0..<(20 + random.next(below: 15)) { ids.append(try await createTicket(&random)) }
        try await write(&random, ids: &ids, count: 15)
        let lists = [
            "/v1/tickets", "/v1/tickets?sort=-priority", "/v1/tickets?status=open,pending", "/v1/tickets?q=print", "/v1/tickets?priority=2",
            "/v1/tickets?group=status", "/v1/tickets?group=status&q=a", "/v1/tickets?group=status&status=solved,closed,open",
            "/v1/tickets?view=table&sort=subject",
        ]
        for list in lists {
            for mode in ["exact", "estimated"] {
                let start = list + (list.contains("?") ? "&" : "?") + "count=\(mode)&limit=\(2 + random.next(below: 6))"
                let walked = try await walk(start)
                let rows = walked.rows.values.reduce(0) { $0 + $1.count }
                // Small lists: an estimate counts them exactly too.
                #expect(walked.totals == ["\(rows)/exact"], "\(start)")
                for (section, shown) in walked.rows where list.contains("group=") {
                    #expect(walked.counts[section] == ["\(shown.count)/exact"], "\(start): section \(section)")
                }
            }
        }
        // Without count (the definition's default: none), no total.
        let plain = try #require(try await server.get("/v1/tickets").json)
        #expect(plain["total"] == nil)
    }

    @Test(arguments: [UInt64(4), 5])
    func aClientReadingOnlyTheFeedHasTheTotalsOfAFreshRead(seed number: UInt64) async throws {
        var random = SeededRandom(seed: number)
        var ids: [String] = []
        for _ in 0..<12 { ids.append(try await createTicket(&random)) }
        for list in ["/v1/tickets?group=status&count=exact", "/v1/tickets?status=open&count=estimated", "/v1/tickets?q=net&count=exact"] {
            let first = try #require(try await server.get(list).json)
            let links = try #require(first["links"] as? [String: Any])
            let feedLink = try #require(links["changes"] as? String)
            #expect(feedLink.contains("count="), "\(feedLink)")
            var feed = try #require(try await server.get(feedLink).json)
            var total = Self.describe(feed["total"])
            var sections = Self.sections(feed)
            for _ in 0..<4 {
                try await write(&random, ids: &ids, count: 1 + random.next(below: 6))
                var next = feed["links"].flatMap { ($0 as? [String: Any])?["next"] as? String }
                while let target = next {
                    feed = try #require(try await server.get(target).json)
                    total = Self.describe(feed["total"])
                    sections = Self.sections(feed)
                    next = feed["more"] as? Bool == true ? (feed["links"] as? [String: Any])?["next"] as? String : nil
                }
                let fresh = try await walk(list + "&limit=5")
                #expect([total] == fresh.totals, "\(list)")
                if list.contains("group=") {
                    let freshCounts = fresh.counts.mapValues { $0.first ?? "" }
                    #expect(sections == freshCounts, "\(list)")
                }
                feed["links"] = ["next": (feed["links"] as? [String: Any])?["next"] as Any]
            }
        }
    }

    static func sections(_ feed: [String: Any]) -> [String: String] {
        var counts: [String: String] = [:]
        for section in feed["sections"] as? [[String: Any]] ?? [] {
            counts[section["id"] as? String ?? "?"] = describe(section["count"])
        }
        return counts
    }

    @Test func aCountThatDoesNotExistIsRefused() async throws {
        _ = try await server.create("tickets", #"{"subject":"One","status":"open","priority":1,"opened":"2026-11-01"}"#)
        let cases: [(String, String)] = [
            ("/v1/tickets?count=all", "INVALID_COUNT"), ("/v1/tickets?count=", "INVALID_COUNT"),
            ("/v1/tickets?count=exact&count=exact", "DUPLICATE_PARAMETER"), ("/v1/tickets/changes?count=planned", "INVALID_COUNT"),
            ("/v1/tickets?ids=tkt_06h157w8pshwp0kz&count=exact", "INVALID_IDS"),
        ]
        for (target, code) in cases {
            let answer = try await server.get(target)
            #expect(answer.status == 400, "\(target): \(answer.text)")
            #expect(answer.json?["code"] as? String == code, "\(target)")
            #expect(answer.header("Content-Type")?.hasPrefix("application/problem+json") == true)
        }
        // count=none turns a total off.
        #expect(try await server.get("/v1/tickets?count=none").json?["total"] == nil)
    }

    @Test func aCollectionsDefaultCountsItsPagesAndFeedsUnlessTheRequestSaysNone() async throws {
        let definition = """
            rowserver: 1
            collections:
              notes:
                idPrefix: not
                title: {en: Notes}
                count: exact
                fields:
                  text: {type: text, required: true, maxLength: 100}
                  done: {type: boolean}
                row: {title: text}
                filters:
                  done: {field: done}
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("counted-\(UUID().uuidString).yaml")
        try definition.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let server = try CatalogTestServer(definition: file.path)
        for index in 0..<7 { _ = try await server.create("notes", #"{"text":"Note \#(index)","done":\#(index % 3 == 0)}"#) }
        let page = try #require(try await server.get("/v1/notes?limit=2").json)
        #expect(Self.describe(page["total"]) == "7/exact")
        // The next page's link keeps no count parameter: the default counts it too.
        let next = try #require((page["links"] as? [String: Any])?["next"] as? String)
        #expect(!next.contains("count="))
        #expect(Self.describe(try await server.get(next).json?["total"]) == "7/exact")
        #expect(Self.describe(try await server.get("/v1/notes?done=true").json?["total"]) == "3/exact")
        #expect(try await server.get("/v1/notes?count=none").json?["total"] == nil)
        #expect(Self.describe(try await server.get("/v1/notes/changes").json?["total"]) == "7/exact")
    }
}
