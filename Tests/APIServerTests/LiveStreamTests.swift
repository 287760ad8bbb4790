import Domain
import Foundation
import HTTPTestSupport
import Testing

/// A list's change feed as server-sent events (`Accept: text/event-stream` on its `changes`
/// link): a client that keeps a list from the stream alone, dropping its connection at random and
/// resuming with `Last-Event-ID` while writes go on, ends with exactly the rows a fresh read
/// gives; and a stream opens with a spread `retry` and a token, and refuses a forged one.
@Suite("Live lists over server-sent events")
struct LiveStreamTests {
    let server: CatalogTestServer

    init() async throws {
        server = try CatalogTestServer.tickets()
    }

    /// A stream client: its rows, and the id of the last event it applied. Handed to a thread
    /// of its own for each blocking read, by one caller at a time.
    struct StreamClient: @unchecked Sendable {
        var list: FeedClient
        var lastEventID: String?
        var reader: EventStreamReader?

        /// Applies the next `changes` event; false when the stream ended.
        mutating func applyNext() throws -> Bool {
            guard let reader, let event = try reader.next() else { return false }
            if let id = event.id { lastEventID = id }
            guard event.event == "changes", let data = event.data,
                let json = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any],
                let changes = json["changes"] as? [[String: Any]]
            else { return true }
            try list.apply(changes, resume: list.feed)
            return true
        }

        /// Applies events until the rows are `expected`, or for 10 s (slowed down as tests are).
        mutating func catchUp(to expected: [[String: Any]]) async throws {
            let deadline = Date().addingTimeInterval(10 * RawHTTPClient.slowdown)
            while !list.sameRows(as: expected), Date() < deadline {
                let reading = self
                self = try await onThread {
                    var next = reading
                    _ = try next.applyNext()
                    return next
                }
            }
        }
    }

    func rows(_ list: String) async throws -> [[String: Any]] {
        let answer = try await server.get(list + (list.contains("?") ? "&" : "?") + "limit=100")
        return try #require(answer.json?["rows"] as? [[String: Any]], "\(list): \(answer.text)")
    }

    func open(_ feed: String, after id: String?, on port: Int) async throws -> EventStreamReader {
        try await onThread { try EventStreamReader(port: port, feed, headers: id.map { [("Last-Event-ID", $0)] } ?? []) }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aClientKeepingAListFromItsStreamAcrossDisconnectsHasWhatAFreshReadGives(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let lists = ["/v1/tickets?sort=-priority", "/v1/tickets?status=open&q=printer"]
        let list = lists[Int(seed) % lists.count]
        var tickets: [String] = []
        for index in 0..<4 {
            tickets.append(try await server.create("tickets", #"{"subject":"Printer \#(index)","status":"open","priority":2,"opened":"2026-11-20"}"#))
        }
        let page = try #require(try await server.get(list).json)
        let feed = try #require((page["links"] as? [String: Any])?["changes"] as? String)
        let port = server.port
        var client = StreamClient(list: FeedClient(rows: try await rows(list), feed: feed), lastEventID: nil, reader: nil)
        client.reader = try await open(feed, after: nil, on: port)
        #expect(client.reader?.head.status == 200)
        // The opening event: a retry spread over seconds, and the token of now.
        let opening = try #require(try client.reader?.next())
        #expect((1_000...4_000).contains(opening.retry ?? 0))
        client.lastEventID = try #require(opening.id)
        for burst in 0..<6 {
            for step in 0..<6 {
                let ticket = tickets[random.next(below: tickets.count)]
                switch random.next(below: 5) {
                case 0, 1:
                    let word = ["Printer", "Laptop", "printer jam"][random.next(below: 3)]
                    tickets.append(
                        try await server.create(
                            "tickets",
                            #"{"subject":"\#(word) \#(burst).\#(step)","status":"open","priority":\#(random.next(below: 3) + 1),"opened":"2026-11-20"}"#
                        ))
                case 2, 3:
                    let status = ["open", "pending", "closed"][random.next(below: 3)]
                    let answer = try await server.send(
                        "PATCH", "/v1/tickets/\(ticket)", json: #"{"status":"\#(status)","priority":\#(random.next(below: 3) + 1)}"#)
                    #expect(answer.status == 200 || answer.status == 404, "\(answer.text)")
                default:
                    let answer = try await server.send("DELETE", "/v1/tickets/\(ticket)")
                    #expect(answer.status == 204 || answer.status == 404, "\(answer.text)")
                    tickets.removeAll { $0 == ticket }
                    if tickets.isEmpty {
                        tickets.append(
                            try await server.create("tickets", #"{"subject":"Printer again","status":"open","priority":1,"opened":"2026-11-20"}"#))
                    }
                }
            }
            if random.next(below: 2) == 0 {
                // Gone mid-stream, events unread: it resumes from the last one it applied.
                client.reader = nil
                client.reader = try await open(feed, after: client.lastEventID, on: port)
                #expect(client.reader?.head.status == 200)
            }
            let fresh = try await rows(list)
            try await client.catchUp(to: fresh)
            #expect(client.list.ids == fresh.compactMap { $0["id"] as? String }, "seed \(seed), burst \(burst): \(list)")
            #expect(client.list.sameRows(as: fresh), "seed \(seed), burst \(burst): rows")
        }
    }

    @Test func aForgedTokenIs400AndATokenOfAnotherCollectionToo() async throws {
        for token in ["garbage", "AAAA"] {
            let reader = try await open("/v1/tickets/changes", after: token, on: server.port)
            #expect(reader.head.status == 400, "\(token)")
            #expect(reader.head.header("Content-Type")?.hasPrefix("application/problem+json") == true)
        }
        let agents = try #require(try await server.get("/v1/agents/changes").json?["next"] as? String)
        let reader = try await open("/v1/tickets/changes?since=\(agents)", after: nil, on: server.port)
        #expect(reader.head.status == 400)
    }
}

extension LiveStreamTests {
    /// A list's rows show other items (a ticket's assignee in its table): a rename of one is no
    /// change of the list, and the stream says it by a new `referencesVersion`, as the feed does.
    @Test func aRenamedReferencedItemIsSaidByAnEventWithANewReferencesVersion() async throws {
        let agent = try await server.create("agents", #"{"name":"Ana","email":"ana@example.com","team":"billing"}"#)
        _ = try await server.create("tickets", #"{"subject":"Printer","status":"open","priority":2,"opened":"2026-11-20","assigneeID":"\#(agent)"}"#)
        let reader = try await open("/v1/tickets/changes?view=table", after: nil, on: server.port)
        _ = try await onThread { try reader.next() }
        // The stream's group has read the versions it starts from.
        try await Task.sleep(for: .milliseconds(200))
        let renamed = try await server.send("PATCH", "/v1/agents/\(agent)", json: #"{"name":"Ana María"}"#)
        #expect(renamed.status == 200)
        let event = try await onThread { try reader.events { $0.event == "changes" }.last }
        let data = try #require(event?.data.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect((data["changes"] as? [Any])?.isEmpty == true)
        let feed = try #require(try await server.get("/v1/tickets/changes?view=table").json)
        #expect(data["referencesVersion"] as? String == feed["referencesVersion"] as? String)
    }
}
