import Foundation
import HTTPTestSupport
import Testing

/// `?ids=a,b,c`: the rows of those items in that order, as rows or a table, with the ids that
/// have no row in the list named (`missing`); a child list's selection holds its parent's only.
@Suite("Selecting rows by id")
struct SelectionTests {
    let server: CatalogTestServer

    init() async throws {
        server = try CatalogTestServer.tickets()
    }

    func tickets(_ subjects: [String]) async throws -> [String] {
        var ids: [String] = []
        for subject in subjects {
            ids.append(try await server.create("tickets", #"{"subject":"\#(subject)","status":"open","priority":2,"opened":"2026-11-20"}"#))
        }
        return ids
    }

    @Test func theRowsComeInTheOrderAskedAndTheUnknownIdsAreNamed() async throws {
        let ids = try await tickets(["Alpha", "Bravo", "Charlie", "Delta"])
        let unknown = "tkt_06h157w8pshwp0kz"
        let asked = [ids[2], unknown, ids[0], ids[3]]
        for language in ["en-US", "de-DE"] {
            let answer = try await server.get("/v1/tickets?ids=" + asked.joined(separator: ","), language: language)
            #expect(answer.status == 200, "\(answer.text)")
            let rows = try #require(answer.json?["rows"] as? [[String: Any]])
            #expect(rows.map { $0["id"] as? String } == [ids[2], ids[0], ids[3]])
            #expect(rows.map { $0["title"] as? String } == ["Charlie", "Alpha", "Delta"])
            #expect(answer.json?["missing"] as? [String] == [unknown])
            #expect(answer.json?["empty"] is NSNull)
            let links = try #require(answer.json?["links"] as? [String: Any])
            #expect(links["self"] as? String == "/v1/tickets?ids=" + asked.joined(separator: "%2C"))
            #expect(links["next"] is NSNull && links["prev"] is NSNull)
            #expect(answer.header("ETag") != nil)
        }
        // A table of the same selection, cells and all; a list without ids has no `missing`.
        let table = try await server.get("/v1/tickets?view=table&ids=\(ids[1]),\(ids[0])")
        #expect((table.json?["rows"] as? [[String: Any]])?.map { $0["id"] as? String } == [ids[1], ids[0]])
        #expect((table.json?["columns"] as? [Any])?.isEmpty == false)
        #expect(table.json?["missing"] as? [String] == [])
        #expect(try await server.get("/v1/tickets").json?.keys.contains("missing") == false)
    }

    @Test func aChildListsSelectionHoldsItsParentsRowsOnly() async throws {
        let ids = try await tickets(["One", "Two"])
        var comments: [String] = []
        for ticket in ids {
            let created = try await server.send(
                "POST", "/v1/tickets/\(ticket)/comments", json: #"{"author":"Ana","body":"Seen.","posted":"2026-11-21T09:30:00Z"}"#)
            comments.append(try #require(created.json?["id"] as? String))
        }
        let answer = try await server.get("/v1/tickets/\(ids[0])/comments?ids=\(comments[1]),\(comments[0])")
        #expect((answer.json?["rows"] as? [[String: Any]])?.map { $0["id"] as? String } == [comments[0]])
        #expect(answer.json?["missing"] as? [String] == [comments[1]])
    }

    @Test func badSelectionsAre400AndNameTheirParameter() async throws {
        let ids = try await tickets(["Echo"])
        let tooMany = (0...100).map { String(format: "tkt_06h157w8pshw%04d", $0) }.joined(separator: ",")
        let cases: [(String, String)] = [
            ("ids=", "INVALID_IDS"), ("ids=\(ids[0]),", "INVALID_IDS"), ("ids=agt_06h157w8pshwp0kz", "INVALID_IDS"),
            ("ids=\(ids[0]),\(ids[0])", "INVALID_IDS"), ("ids=\(tooMany)", "TOO_MANY_IDS"), ("ids=\(ids[0])&sort=subject", "INVALID_IDS"),
            ("ids=\(ids[0])&status=open", "INVALID_IDS"), ("ids=\(ids[0])&limit=5", "INVALID_IDS"), ("ids=\(ids[0])&q=echo", "INVALID_IDS"),
            ("ids=\(ids[0])&group=status", "INVALID_IDS"),
        ]
        for (query, code) in cases {
            let answer = try await server.get("/v1/tickets?" + query)
            #expect(answer.status == 400, "\(query): \(answer.text)")
            #expect(answer.json?["code"] as? String == code, "\(query)")
            #expect(answer.json?["parameter"] as? String == "ids", "\(query)")
            #expect(answer.header("Content-Type") == "application/problem+json")
        }
    }
}
