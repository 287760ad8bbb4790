import Domain
import Foundation
import HTTPTestSupport
import ServerTestSupport
import Testing

/// Live lists across rowserver processes on one PostgreSQL database: a client streams a list from
/// one instance while another takes the writes, drops its connection at random and resumes with
/// `Last-Event-ID` on whichever instance, and ends with the rows a fresh read gives.
@Suite(.enabled(if: TestStore.postgresURLForProcesses != nil, "needs ROWSERVER_TEST_POSTGRES"), .runsOnce("on PostgreSQL in every run"))
struct CrossInstanceStreamTests {
    @Test func aStreamResumedOnEitherInstanceKeepsTheListTheOtherInstanceWrites() async throws {
        let database = try TestStore.newDatabase(try #require(TestStore.postgresURLForProcesses))
        let instances = try (0..<2).map { _ in try ServerProcess(arguments: ["--database", database]) }
        let secret = try #require(
            try KeysCommandTests.run(["keys", "create", "--database", database, "--name", "cross", "--scope", "write"]).output
                .trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty)
        let writer = instances[1]
        func send(_ method: String, _ target: String, _ json: String? = nil) async throws -> HTTPResponse {
            try await fetch(
                port: writer.port, method, target, headers: [("Authorization", "Bearer \(secret)"), ("Content-Type", "application/json")],
                body: Array((json ?? "").utf8))
        }
        let list = "/v1/products?sort=-price&q=cross"
        func fresh() async throws -> [[String: Any]] {
            try #require(try await fetch(port: instances[0].port, list + "&limit=100").json?["rows"] as? [[String: Any]])
        }
        let feed = try #require((try await fetch(port: instances[0].port, list).json?["links"] as? [String: Any])?["stream"] as? String)
        var client = LiveStreamTests.StreamClient(list: FeedClient(rows: try await fresh(), feed: feed), lastEventID: nil, reader: nil)
        let first = instances[0].port
        client.reader = try await onThread { try EventStreamReader(port: first, feed) }
        client.lastEventID = try #require(try client.reader?.next()?.id)
        var random = SeededRandom(seed: 7)
        var products: [String] = []
        for burst in 0..<5 {
            for step in 0..<6 {
                if products.isEmpty || random.next(below: 3) == 0 {
                    let created = try await send(
                        "POST", "/v1/products",
                        #"{"name":"Cross \#(burst).\#(step)","price":{"minorUnits":\#(100 + random.next(below: 900)),"currency":"USD"}}"#)
                    #expect(created.status == 201, "\(created.text)")
                    if let id = created.json?["id"] as? String { products.append(id) }
                } else if random.next(below: 2) == 0 {
                    let id = products[random.next(below: products.count)]
                    let patched = try await send(
                        "PATCH", "/v1/products/\(id)", #"{"price":{"minorUnits":\#(100 + random.next(below: 900)),"currency":"USD"}}"#)
                    #expect(patched.status == 200, "\(patched.text)")
                } else {
                    let id = products.remove(at: random.next(below: products.count))
                    #expect(try await send("DELETE", "/v1/products/\(id)").status == 204)
                }
            }
            if random.next(below: 2) == 0 {
                // Gone with events unread: back on either instance, from the last event applied.
                client.reader = nil
                let port = instances[random.next(below: 2)].port
                let resume = client.lastEventID
                client.reader = try await onThread { try EventStreamReader(port: port, feed, headers: resume.map { [("Last-Event-ID", $0)] } ?? []) }
            }
            let expected = try await fresh()
            try await client.catchUp(to: expected)
            #expect(client.list.ids == expected.compactMap { $0["id"] as? String }, "burst \(burst)")
            #expect(client.list.sameRows(as: expected), "burst \(burst): rows")
        }
    }
}
