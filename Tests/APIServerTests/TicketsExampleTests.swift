import APIServer
import Domain
import Foundation
import HTTPTestSupport
import Storage
import Testing

/// `examples/tickets.yaml` served end to end over HTTP: nothing of it is Swift.
@Suite("The tickets example over HTTP")
struct TicketsExampleTests {
    let server: CatalogTestServer
    var agent = ""

    init() async throws {
        server = try CatalogTestServer.tickets()
    }

    func seed() async throws -> (agent: String, tickets: [String]) {
        let agent = try await server.create("agents", #"{"name":"Ana Díaz","email":"ana@example.com","team":"billing"}"#)
        var tickets: [String] = []
        let rows: [(String, String, Int, String, String?)] = [
            ("Printer jams", "open", 2, "2026-11-20", "2026-11-25"),
            ("VPN drops", "pending", 1, "2026-11-18", nil),
            ("Invoice wrong", "open", 3, "2026-11-21", "2026-11-30"),
            ("Password reset", "solved", 4, "2026-11-10", "2026-11-11"),
        ]
        for (subject, status, priority, opened, due) in rows {
            let dueJSON = due.map { "\"\($0)\"" } ?? "null"
            tickets.append(
                try await server.create(
                    "tickets",
                    #"{"subject":"\#(subject)","status":"\#(status)","priority":\#(priority),"opened":"\#(opened)","due":\#(dueJSON),"assigneeID":"\#(agent)","description":"**Steps:** see [log](https://x.y)","credit":{"minorUnits":1250,"currency":"EUR"}}"#
                ))
        }
        return (agent, tickets)
    }

    @Test func rowsFollowTheDefaultOrderAndShowWhatTheRowDeclares() async throws {
        _ = try await seed()
        let response = try await server.get("/v1/tickets")
        #expect(response.status == 200)
        let rows = try #require(response.json?["rows"] as? [[String: Any]])
        #expect(rows.map { $0["title"] as? String } == ["VPN drops", "Printer jams", "Invoice wrong", "Password reset"])
        #expect(rows[1]["subtitle"] as? String == "Steps: see log")
        #expect(rows[1]["trailing"] as? String == "Nov 25, 2026")
        #expect(rows[0]["trailing"] is NSNull)
        #expect(rows[0]["image"] as? String == "ticket")
        #expect(response.json?["limit"] as? Int == 25)
    }

    @Test func sectionsByStatusAreHeadedInTheRequestsLanguage() async throws {
        _ = try await seed()
        let response = try await server.get("/v1/tickets?group=status", language: "de-DE")
        #expect(response.header("Content-Language") == "de-DE")
        let sections = try #require(response.json?["sections"] as? [[String: Any]])
        #expect(sections.map { $0["id"] as? String } == ["open", "pending", "solved"])
        #expect(sections.map { $0["header"] as? String } == ["Offen", "Wartend", "Gelöst"])
        #expect(sections.allSatisfy { $0["detail"] is NSNull })
        let trailing = (sections[0]["rows"] as? [[String: Any]])?.first?["trailing"] as? String
        #expect(trailing == "25.11.2026")
    }

    @Test func theTableShowsReferencedTitlesAndSortLinks() async throws {
        _ = try await seed()
        let response = try await server.get("/v1/tickets?view=table&sort=-priority")
        let columns = try #require(response.json?["columns"] as? [[String: Any]])
        #expect(columns.map { $0["id"] as? String } == ["subject", "priority", "status", "assigneeID", "opened", "due", "sla"])
        #expect(columns.map { $0["sortable"] as? Bool } == [true, true, true, false, true, true, false])
        let links = try #require(columns[0]["links"] as? [String: Any])
        #expect(links["descending"] as? String == "/v1/tickets?sort=-subject&view=table")
        let rows = try #require(response.json?["rows"] as? [[String: Any]])
        let cells = try #require(rows.first?["cells"] as? [String: String])
        #expect(cells["subject"] == "Password reset")
        #expect(cells["assigneeID"] == "Ana Díaz")
        #expect(cells["status"] == "Solved")
        #expect((rows.first?["compact"] as? [String: Any])?["subtitle"] as? String == "P4 · Solved")
        let due = try #require(rows.first { ($0["cells"] as? [String: String])?["subject"] == "VPN drops" }?["cells"] as? [String: String])
        #expect(due["due"] == "\u{2014}")
        #expect(due["sla"] == "\u{2014}", "no due date, no SLA")
        #expect(cells["sla"] == "1 day", "opened Nov 10, due Nov 11")
        let printer = try #require(rows.first { ($0["cells"] as? [String: String])?["subject"] == "Printer jams" }?["cells"] as? [String: String])
        #expect(printer["sla"] == "5 days")
        let german = try await server.get("/v1/tickets?view=table", language: "de-DE")
        let germanRows = try #require(german.json?["rows"] as? [[String: Any]])
        #expect(germanRows.contains { ($0["cells"] as? [String: String])?["sla"] == "5 Tage" })
    }

    @Test func everyFilterKindKeepsOnlyItsItemsAndRefusesBadValues() async throws {
        let (agent, _) = try await seed()
        func titles(_ query: String) async throws -> [String] {
            let response = try await server.get("/v1/tickets?" + query)
            #expect(response.status == 200, "\(query): \(response.text)")
            return ((response.json?["rows"] as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String }
        }
        #expect(try await titles("status=open,pending") == ["VPN drops", "Printer jams", "Invoice wrong"])
        #expect(try await titles("priority=2") == ["VPN drops", "Printer jams"])
        #expect(try await titles("dueBefore=2026-11-25") == ["Printer jams", "Password reset"])
        #expect(try await titles("assignee=\(agent)&billable=false").count == 4)
        #expect(try await titles("q=PRINTER") == ["Printer jams"])
        #expect(try await titles("q=zz").isEmpty)
        for bad in ["status=lost", "priority=high", "dueBefore=2026-02-30", "billable=yes", "assignee=tkt_1", "colour=red"] {
            let response = try await server.get("/v1/tickets?" + bad)
            #expect(response.status == 400, "\(bad)")
        }
    }

    @Test func theDetailEmbedsAndLinksItsReferences() async throws {
        let (agent, tickets) = try await seed()
        let response = try await server.get("/v1/tickets/\(tickets[0])")
        let json = try #require(response.json)
        #expect(json["status"] as? String == "open")
        #expect(json["summary"] as? String == "Steps: see log")
        #expect(json["reference"] as? String == "P2 · Open")
        #expect((json["credit"] as? [String: Any])?["formatted"] as? String == "€12.50")
        #expect((json["assignee"] as? [String: Any])?["name"] as? String == "Ana Díaz")
        #expect((json["links"] as? [String: Any])?["assignee"] as? String == "/v1/agents/\(agent)")
        let agentDetail = try await server.get("/v1/agents/\(agent)")
        #expect((agentDetail.json?["links"] as? [String: Any])?["tickets"] as? String == "/v1/tickets?assignee=\(agent)")
        let tag = try #require(response.header("ETag"))
        #expect(try await server.send("GET", "/v1/tickets/\(tickets[0])", headers: [("If-None-Match", tag)]).status == 304)
    }

    @Test func writesValidateByTheDefinitionAndReferencesRestrictDeletes() async throws {
        let (agent, tickets) = try await seed()
        let bad = try await server.send(
            "POST", "/v1/tickets", json: #"{"subject":"","status":"lost","priority":9,"opened":"2026-13-01","extra":1}"#)
        #expect(bad.status == 422)
        #expect(bad.problemPointers == ["/extra", "/subject", "/status", "/priority", "/opened"])
        let missing = try await server.send(
            "POST", "/v1/tickets", json: #"{"subject":"S","opened":"2026-11-01","assigneeID":"agt_06h157w8pshwp0kz"}"#)
        #expect(missing.status == 422)
        #expect(missing.problemPointers == ["/assigneeID"])
        let blocked = try await server.send("DELETE", "/v1/agents/\(agent)")
        #expect(blocked.status == 409)
        let patched = try await server.send("PATCH", "/v1/tickets/\(tickets[0])", json: #"{"status":"closed","due":null}"#)
        #expect(patched.status == 200)
        #expect(patched.json?["due"] is NSNull)
        #expect(try await server.send("DELETE", "/v1/tickets/\(tickets[0])").status == 204)
        #expect(try await server.get("/v1/tickets/\(tickets[0])").status == 404)
    }

    @Test func theChangeFeedPlacesAChangedRowInItsSectionAndTable() async throws {
        let (_, tickets) = try await seed()
        let start = try await server.get("/v1/tickets/changes")
        let token = try #require(start.json?["next"] as? String)
        _ = try await server.send("PATCH", "/v1/tickets/\(tickets[2])", json: #"{"status":"pending"}"#)
        _ = try await server.send("PATCH", "/v1/tickets/\(tickets[2])", json: #"{"priority":1}"#)
        _ = try await server.send("DELETE", "/v1/tickets/\(tickets[3])")
        let feed = try await server.get("/v1/tickets/changes?since=\(token)", language: "fr-FR")
        let changes = try #require(feed.json?["changes"] as? [[String: Any]])
        #expect(changes.map { $0["op"] as? String } == ["upsert", "delete"])
        let section = try #require(changes[0]["section"] as? [String: Any])
        #expect(section["id"] as? String == "pending")
        #expect(section["header"] as? String == "En attente")
        #expect((changes[0]["cells"] as? [String: Any])?["priority"] as? String == "1")
    }

    @Test func aChildWriteNeedsAKeyWithTheChildsWriteScope() async throws {
        let (_, tickets) = try await seed()
        let comments = "/v1/tickets/\(tickets[0])/comments"
        let body = Array(#"{"author":"Ana","body":"Restarted.","posted":"2026-11-21T09:30:00Z"}"#.utf8)
        let keys = try server.keys
        let json = ("Content-Type", "application/json")
        let anonymous = try await fetch(port: server.port, "POST", comments, headers: [json], body: body)
        #expect(anonymous.status == 401)
        #expect(anonymous.json?["code"] as? String == "KEY_REQUIRED")
        let parentOnly = try keys.create(name: "tickets", scopes: ["write:tickets"], at: 0).secret
        let refused = try await fetch(port: server.port, "POST", comments, headers: [json, ("Authorization", "Bearer " + parentOnly)], body: body)
        #expect(refused.status == 403)
        #expect(refused.header("WWW-Authenticate")?.contains(#"scope="write:comments""#) == true)
        let child = try keys.create(name: "comments", scopes: ["write:comments"], at: 0).secret
        let created = try await fetch(port: server.port, "POST", comments, headers: [json, ("Authorization", "Bearer " + child)], body: body)
        #expect(created.status == 201)
    }

    @Test func commentsAreWrittenAndListedUnderTheirTicketOnly() async throws {
        let (_, tickets) = try await seed()
        let comments = "/v1/tickets/\(tickets[0])/comments"
        let body = #"{"author":"Ana","body":"Restarted the spooler.","posted":"2026-11-21T09:30:00Z"}"#
        let created = try await server.send("POST", comments, json: body)
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(created.json?["id"] as? String)
        #expect(created.header("Location") == "\(comments)/\(id)")
        #expect(created.json?["ticketID"] as? String == tickets[0])
        #expect(try await server.get("\(comments)/\(id)").status == 200)
        // The path names the parent: a body naming one is refused at that field.
        let named = try await server.send(
            "POST", comments, json: #"{"ticketID":"\#(tickets[1])","author":"A","body":"B","posted":"2026-11-21T09:30:00Z"}"#)
        #expect(named.status == 422)
        #expect(named.problemPointers == ["/ticketID"])
        #expect(try await server.send("PATCH", "\(comments)/\(id)", json: #"{"ticketID":"\#(tickets[1])"}"#).status == 422)
        let missingParent = try await server.send("POST", "/v1/tickets/tkt_06h157w8pshwp0kz/comments", json: body)
        #expect(missingParent.status == 404)
        // Another ticket's path does not reach this comment, for reading or writing, and each
        // answer says that it belongs to another ticket (a missing one says it has none).
        let elsewhere = "/v1/tickets/\(tickets[1])/comments/\(id)"
        let belongs = "This comments item belongs to another tickets item, not to this one: the path under its own reaches it."
        for answer in [
            try await server.get(elsewhere), try await server.get(elsewhere, language: "de-DE"),
            try await server.send("PATCH", elsewhere, json: #"{"author":"Eve"}"#), try await server.send("DELETE", elsewhere),
        ] {
            #expect(answer.status == 404)
            #expect(answer.json?["code"] as? String == "NOT_FOUND")
            #expect(answer.json?["detail"] as? String == belongs, "\(answer.text)")
        }
        let missing = try await server.send("PATCH", "/v1/tickets/\(tickets[1])/comments/cmt_06h157w8pshwp0kz", json: #"{"author":"Eve"}"#)
        #expect(missing.status == 404)
        #expect(missing.json?["detail"] as? String != belongs)
        #expect(try await server.send("POST", "/v1/comments", json: body).status == 404)
        let patched = try await server.send("PATCH", "\(comments)/\(id)", json: #"{"author":"Ana Díaz"}"#)
        #expect(patched.status == 200)
        #expect(patched.json?["author"] as? String == "Ana Díaz")
        let list = try await server.get(comments)
        #expect((list.json?["rows"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Ana Díaz"])
        #expect((try await server.get("/v1/tickets/\(tickets[1])/comments").json?["rows"] as? [Any])?.isEmpty == true)
        #expect(try await server.send("DELETE", "\(comments)/\(id)").status == 204)
        #expect(try await server.get("\(comments)/\(id)").status == 404)
        // Deleting the ticket deletes its comments.
        let second = try #require(try await server.send("POST", comments, json: body).json?["id"] as? String)
        #expect(try await server.send("DELETE", "/v1/tickets/\(tickets[0])").status == 204)
        #expect(try server.store.item("comments", id: try #require(EntityID(parsing: second))) == nil)
    }

    @Test func theIndexAndOpenAPIDescribeTheDefinition() async throws {
        let index = try await server.get("/v1", language: "de-DE")
        let collections = try #require(index.json?["collections"] as? [[String: Any]])
        #expect(collections.map { $0["id"] as? String } == ["agents", "tickets"])
        #expect(collections.map { $0["title"] as? String } == ["Mitarbeitende", "Tickets"])
        // The default order names sorts by `sort` (and by `field`, as older clients read it).
        let order = try #require(collections[1]["defaultSort"] as? [[String: String]])
        #expect(order == [["sort": "priority", "field": "priority", "order": "ascending"], ["sort": "due", "field": "due", "order": "ascending"]])
        let links = try #require(collections[1]["links"] as? [String: Any])
        #expect(links["sections"] as? String == "/v1/tickets?group=status")
        let spec = try await server.get("/openapi.yaml")
        #expect(spec.status == 200)
        #expect(spec.text.contains("\"/v1/tickets/{id}\":"))
        #expect(!spec.text.contains("/v1/products"))
    }
}
