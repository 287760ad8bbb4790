import Domain
import Foundation
import HTTPTestSupport
import Testing

/// A child list (`/v1/tickets/{id}/comments` of `examples/tickets.yaml`) is a whole list: its
/// page links its own change feed, which holds the changes of that parent's children only, each
/// upsert placed in that list, so a client that reads only the feed keeps the list a fresh read gives.
@Suite("A child list's change feed")
struct ChildListFeedTests {
    let server: CatalogTestServer

    init() async throws {
        server = try CatalogTestServer.tickets()
    }

    func tickets(_ count: Int) async throws -> [String] {
        var ids: [String] = []
        for index in 0..<count {
            ids.append(try await server.create("tickets", #"{"subject":"Ticket \#(index)","status":"open","priority":2,"opened":"2026-11-20"}"#))
        }
        return ids
    }

    func comment(_ ticket: String, author: String, body: String, posted: String) async throws -> String {
        let response = try await server.send(
            "POST", "/v1/tickets/\(ticket)/comments", json: #"{"author":"\#(author)","body":"\#(body)","posted":"\#(posted)"}"#)
        guard response.status == 201, let id = response.json?["id"] as? String else {
            throw RawHTTPClient.Failure(description: "a comment answered \(response.status): \(response.text)")
        }
        return id
    }

    /// Every change after `link` (a feed link with `since`), following `more`; and the link to resume from.
    func readFeed(_ link: String) async throws -> (changes: [[String: Any]], resume: String) {
        try await server.readFeed(link)
    }

    /// The feed link of a list, from now.
    func feedFromNow(_ list: String) async throws -> String {
        let page = try #require(try await server.get(list).json)
        let feed = try #require((page["links"] as? [String: Any])?["changes"] as? String)
        let start = try #require(try await server.get(feed).json)
        return try #require((start["links"] as? [String: Any])?["next"] as? String)
    }

    /// The whole list, rows in order.
    func rows(_ list: String) async throws -> [[String: Any]] {
        let answer = try await server.get(list + (list.contains("?") ? "&" : "?") + "limit=100")
        let rows = try #require(answer.json?["rows"] as? [[String: Any]], "\(list): \(answer.text)")
        #expect(answer.json?["next"] is NSNull, "\(list) fits one page")
        return rows
    }

    @Test func aChildListLinksItsOwnFeed() async throws {
        let ticket = try await tickets(1)[0]
        let cases = [
            ("/v1/tickets/\(ticket)/comments", "/v1/tickets/\(ticket)/comments/changes"),
            ("/v1/tickets/\(ticket)/comments?sort=-posted&q=printer&limit=5", "/v1/tickets/\(ticket)/comments/changes?sort=-posted&q=printer"),
        ]
        for (list, feed) in cases {
            let page = try await server.get(list)
            #expect((page.json?["links"] as? [String: Any])?["changes"] as? String == feed, "\(list)")
            let start = try await server.get(feed)
            #expect(start.status == 200)
            #expect(start.header("Cache-Control") == "no-store")
            let next = (start.json?["links"] as? [String: Any])?["next"] as? String
            #expect(next?.hasPrefix(feed + (feed.contains("?") ? "&since=" : "?since=")) == true, "\(feed)")
        }
    }

    @Test func aCommentAppearsInItsTicketsFeedInPlaceAndInNoOtherTickets() async throws {
        let tickets = try await tickets(2)
        let lists = tickets.map { "/v1/tickets/\($0)/comments" }
        let early = try await comment(tickets[0], author: "Ana", body: "First look.", posted: "2026-11-21T09:00:00Z")
        let feeds = [try await feedFromNow(lists[0]), try await feedFromNow(lists[1])]
        let late = try await comment(tickets[0], author: "Ben", body: "Fixed.", posted: "2026-11-22T09:00:00Z")
        let between = try await comment(tickets[0], author: "Cleo", body: "Ordered a part.", posted: "2026-11-21T12:00:00Z")

        let own = try await readFeed(feeds[0]).changes
        #expect(own.map { $0["id"] as? String } == [late, between])
        #expect(own.map { $0["op"] as? String } == ["upsert", "upsert"])
        // Each names the row now before it in the ticket's list (by `posted`): early, between, late.
        #expect(own.map { $0["after"] as? String } == [between, early])
        #expect((own[0]["row"] as? [String: Any])?["detail"] as? String == "\(lists[0])/\(late)")
        #expect(try await readFeed(feeds[1]).changes.isEmpty, "another ticket's feed holds none of them")

        // A delete under one ticket is in that ticket's feed only, too.
        let resume = [try await feedFromNow(lists[0]), try await feedFromNow(lists[1])]
        #expect(try await server.send("DELETE", "\(lists[0])/\(between)").status == 204)
        let deleted = try await readFeed(resume[0]).changes
        #expect(deleted.map { $0["id"] as? String } == [between])
        #expect(deleted.map { $0["op"] as? String } == ["delete"])
        #expect(try await readFeed(resume[1]).changes.isEmpty)
    }

    @Test func aFeedOfAMissingParentOrListIs404AndBadParametersAre400() async throws {
        let ticket = try await tickets(1)[0]
        let cases: [(String, Int, String)] = [
            ("/v1/tickets/tkt_06h157w8pshwp0kz/comments/changes", 404, "NOT_FOUND"),
            ("/v1/tickets/\(ticket)/notes/changes", 404, "NOT_FOUND"),
            ("/v1/tickets/\(ticket)/comments/changes?cursor=abc", 400, "UNKNOWN_PARAMETER"),
            ("/v1/tickets/\(ticket)/comments/changes?sort=shoeSize", 400, "INVALID_SORT"),
            ("/v1/tickets/\(ticket)/comments/changes?since=forged", 400, "INVALID_TOKEN"),
        ]
        for (target, status, code) in cases {
            let answer = try await server.get(target)
            #expect(answer.status == status, "\(target): \(answer.text)")
            #expect(answer.json?["code"] as? String == code, "\(target)")
            #expect(answer.header("Content-Type") == "application/problem+json", "\(target)")
        }
        // The ticket's deletion takes its comments, and its list and feed with them.
        let feed = try await feedFromNow("/v1/tickets/\(ticket)/comments")
        #expect(try await server.send("DELETE", "/v1/tickets/\(ticket)").status == 204)
        #expect(try await server.get(feed).status == 404)
    }

    /// Random creates, patches (which move a comment in the order, or out of a search) and
    /// deletes under three tickets; after each burst, a client that read only one ticket's feeds
    /// (default order, newest first, a search) and applied them by id and `after` holds exactly
    /// the list a fresh read returns, and never saw another ticket's comment.
    @Test(arguments: [UInt64(1), 2, 3])
    func aClientReadingOnlyTheFeedKeepsTheListAFreshReadGives(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let tickets = try await tickets(3)
        let watched = "/v1/tickets/\(tickets[0])/comments"
        let lists = [watched, watched + "?sort=-posted", watched + "?q=printer"]
        let words = ["printer", "spooler", "toner", "driver", "cable"]
        var comments: [String: [String]] = [:]
        var clients = try await lists.asyncMap { list in FeedClient(rows: try await rows(list), feed: try await feedFromNow(list)) }
        for burst in 0..<4 {
            for _ in 0..<12 {
                let ticket = tickets[random.next(below: 3)]
                let existing = comments[ticket] ?? []
                let posted = String(format: "2026-11-%02dT%02d:00:00Z", 1 + random.next(below: 28), random.next(below: 24))
                let body = "Checked the \(words[random.next(below: words.count)])."
                switch existing.isEmpty ? 0 : random.next(below: 4) {
                case 0, 1:
                    let id = try await comment(ticket, author: "Author \(random.next(below: 100))", body: body, posted: posted)
                    comments[ticket, default: []].append(id)
                case 2:
                    let id = existing[random.next(below: existing.count)]
                    let patch = random.next(below: 2) == 0 ? #"{"posted":"\#(posted)"}"# : #"{"body":"\#(body)"}"#
                    #expect(try await server.send("PATCH", "/v1/tickets/\(ticket)/comments/\(id)", json: patch).status == 200)
                default:
                    let index = random.next(below: existing.count)
                    #expect(try await server.send("DELETE", "/v1/tickets/\(ticket)/comments/\(existing[index])").status == 204)
                    comments[ticket]?.remove(at: index)
                }
            }
            let others = Set(tickets.dropFirst().flatMap { comments[$0] ?? [] })
            for index in lists.indices {
                let (changes, resume) = try await readFeed(clients[index].feed)
                #expect(changes.allSatisfy { !others.contains($0["id"] as? String ?? "") }, "\(lists[index]): another ticket's comment")
                try clients[index].apply(changes, resume: resume)
                let fresh = try await rows(lists[index])
                #expect(clients[index].ids == fresh.compactMap { $0["id"] as? String }, "seed \(seed), burst \(burst): \(lists[index])")
                #expect(clients[index].sameRows(as: fresh), "seed \(seed), burst \(burst): \(lists[index]) rows")
            }
        }
        #expect(!clients[0].rows.isEmpty, "the watched ticket has comments at the end")
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
