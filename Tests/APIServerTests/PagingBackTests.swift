import Domain
import Foundation
import HTTPTestSupport
import Testing

/// Paging both ways: every page after the first links the page before it and the first page;
/// walking back by `prev` from the last page gives the forward walk's pages in reverse, for any
/// list shape (sorts both ways, filters, search, sections, tables, a child list).
@Suite("Paging back through a list")
struct PagingBackTests {
    let server: CatalogTestServer

    init() async throws {
        server = try CatalogTestServer.tickets()
    }

    /// A page's row ids (a sectioned page's rows section by section) and its links.
    func page(_ target: String) async throws -> (ids: [String], links: [String: Any], header: String?) {
        let answer = try await server.get(target)
        let json = try #require(answer.json, "\(target): \(answer.text)")
        #expect(answer.status == 200, "\(target): \(answer.text)")
        let rows =
            (json["rows"] as? [[String: Any]])
            ?? (json["sections"] as? [[String: Any]] ?? []).flatMap { $0["rows"] as? [[String: Any]] ?? [] }
        return (rows.compactMap { $0["id"] as? String }, try #require(json["links"] as? [String: Any]), answer.header("Link"))
    }

    /// Random tickets (subjects, priorities, statuses, dates) and comments under the first one.
    func seed(_ random: inout SeededRandom, tickets count: Int) async throws -> String {
        let statuses = ["open", "pending", "solved", "closed"]
        let words = ["printer", "network", "invoice", "laptop", "access"]
        var first = ""
        for index in 0..<count {
            let subject = "\(words[random.next(below: words.count)]) \(random.next(below: 1_000))"
            let id = try await server.create(
                "tickets",
                #"{"subject":"\#(subject)","status":"\#(statuses[random.next(below: 4)])","priority":\#(1 + random.next(below: 4)),"opened":"2026-11-\#(String(format: "%02d", 1 + random.next(below: 28)))"}"#
            )
            if index == 0 { first = id }
        }
        for _ in 0..<(count / 2) {
            let posted = String(format: "2026-11-%02dT%02d:00:00Z", 1 + random.next(below: 28), random.next(below: 24))
            let response = try await server.send(
                "POST", "/v1/tickets/\(first)/comments", json: #"{"author":"A","body":"Note \#(random.next(below: 100))","posted":"\#(posted)"}"#)
            #expect(response.status == 201)
        }
        return first
    }

    @Test(arguments: [UInt64(1), 2])
    func walkingBackFromTheLastPageGivesTheForwardPagesReversed(seed number: UInt64) async throws {
        var random = SeededRandom(seed: number)
        let ticket = try await seed(&random, tickets: 23 + random.next(below: 10))
        let lists = [
            "/v1/tickets", "/v1/tickets?sort=-priority", "/v1/tickets?sort=subject", "/v1/tickets?status=open,pending",
            "/v1/tickets?q=print", "/v1/tickets?group=status", "/v1/tickets?view=table&sort=-opened", "/v1/tickets/\(ticket)/comments",
        ]
        for list in lists {
            let limit = 2 + random.next(below: 5)
            let start = list + (list.contains("?") ? "&" : "?") + "limit=\(limit)"
            var forward: [[String]] = []
            var link: String? = start
            var last: (ids: [String], links: [String: Any], header: String?)?
            var firstSelf: String?
            while let target = link {
                let current = try await page(target)
                forward.append(current.ids)
                if forward.count == 1 {
                    firstSelf = current.links["self"] as? String
                    #expect(current.links["prev"] is NSNull && current.links["first"] is NSNull, "\(start): the first page")
                    #expect(current.header?.contains("rel=\"prev\"") != true)
                } else {
                    #expect(current.links["first"] as? String == firstSelf, "\(start)")
                    #expect(current.header?.contains("rel=\"first\"") == true, "\(start)")
                }
                link = current.links["next"] as? String
                last = current
            }
            var backward: [[String]] = []
            var back = last?.links["prev"] as? String
            while let target = back {
                let current = try await page(target)
                backward.append(current.ids)
                back = current.links["prev"] as? String
                #expect(backward.count < forward.count, "\(start): prev goes on past the first page")
                if backward.count >= forward.count { break }
            }
            #expect(backward.reversed() + [forward.last ?? []] == forward, "\(start) at limit \(limit)")
            #expect(forward.count > 1 || list.contains("q="), "\(start) has more than one page")

            // around=ID opens the page that holds the row, half a page before it (the first page
            // when fewer rows precede it), and pages on from there both ways.
            let order = forward.flatMap { $0 }
            for _ in 0..<3 where !order.isEmpty {
                let index = random.next(below: order.count)
                let before = limit / 2
                let from = index > before ? index - before : 0
                let around = try await page(start + "&around=\(order[index])")
                #expect(around.ids == Array(order[from..<min(from + limit, order.count)]), "\(start) around \(index)")
                #expect((around.links["self"] as? String)?.hasSuffix("around=\(order[index])") == true)
                #expect((around.links["prev"] is NSNull) == (from == 0), "\(start) around \(index)")
                // The page before ends where this one starts, even when fewer than a page precede it.
                if let prev = around.links["prev"] as? String {
                    let before = try await page(prev).ids
                    #expect(before == Array(order[max(0, from - limit)..<from]), "\(start) before around \(index)")
                }
                if let next = around.links["next"] as? String {
                    let following = try await page(next).ids
                    #expect(following == Array(order[(from + limit)..<min(from + 2 * limit, order.count)]), "\(start) after around \(index)")
                }
            }
        }
    }

    @Test func aroundARowThatIsNotInTheListIs404AndBadAroundsAre400() async throws {
        var random = SeededRandom(seed: 5)
        _ = try await seed(&random, tickets: 6)
        let open = try await page("/v1/tickets?status=open&limit=50").ids
        let all = try await page("/v1/tickets?limit=50").ids
        let outside = try #require(all.first { !open.contains($0) })
        let cases: [(String, Int, String)] = [
            ("/v1/tickets?status=open&around=\(outside)", 404, "NOT_FOUND"),
            ("/v1/tickets?around=tkt_06h157w8pshwp0kz", 404, "NOT_FOUND"),
            ("/v1/tickets?around=agt_06h157w8pshwp0kz", 400, "INVALID_AROUND"),
            ("/v1/tickets?around=", 400, "INVALID_AROUND"),
            ("/v1/tickets?around=\(outside)&cursor=abc", 400, "INVALID_AROUND"),
            ("/v1/tickets/changes?around=\(outside)", 400, "UNKNOWN_PARAMETER"),
        ]
        for (target, status, code) in cases {
            let answer = try await server.get(target)
            #expect(answer.status == status, "\(target): \(answer.text)")
            #expect(answer.json?["code"] as? String == code, "\(target)")
        }
    }

    @Test func aPreviousPageCursorOfAnotherListIsRefused() async throws {
        var random = SeededRandom(seed: 9)
        _ = try await seed(&random, tickets: 7)
        let second = try await page("/v1/tickets?limit=3").links["next"] as? String ?? ""
        let prev = try #require(try await page(second).links["prev"] as? String)
        let cursor = try #require(prev.components(separatedBy: "cursor=").last)
        let other = try await server.get("/v1/tickets?sort=subject&limit=3&cursor=\(cursor)")
        #expect(other.status == 400)
        #expect(other.json?["code"] as? String == "INVALID_CURSOR")
    }
}
