import Foundation
import HTTPTestSupport
import Testing

/// Which empty state a list answers, over HTTP in English and German: filters that keep nothing
/// answer `filteredEmpty` (the default, or the definition's, `{filters}` filled), a search that
/// finds nothing `searchEmpty` even with filters, a list with nothing at all `empty`; and rows
/// whose template misses a value drop its separator on a page, in a table and in the change feed.
@Suite("Empty states and templates over HTTP")
struct EmptyStatesTests {
    /// Tasks with a filtered state of their own and a template subtitle; notes under a task, with
    /// a filter and the default filtered state.
    static let definition = """
        rowserver: 1
        collections:
          tasks:
            idPrefix: tsk
            title: {en: Tasks, de: Aufgaben}
            fields:
              name: {type: text, required: true}
              team: {type: text}
              priority: {type: integer, label: {en: Priority, de: Priorität}}
              status:
                type: enum
                values: {open: {en: Open, de: Offen}, done: {en: Done, de: Erledigt}}
                default: open
                label: {en: Status, de: Status}
              line: {template: "{team} · {priority}"}
            row: {title: name, subtitle: "{team} · {priority}"}
            sort: [name]
            filters:
              status: {field: status, op: oneOf}
              priority: {field: priority, op: atMost}
            search: [name]
            table:
              columns: [name, line]
              compact: {title: name, subtitle: line}
            empty:
              title: {en: No Tasks, de: Keine Aufgaben}
            filteredEmpty:
              title: {en: "Nothing for {filters}", de: "Nichts für {filters}"}
              description: {en: Change the filters., de: Ändern Sie die Filter.}
              image: line.3.horizontal.decrease
          notes:
            idPrefix: not
            title: {en: Notes, de: Notizen}
            parent: taskID
            fields:
              taskID: {type: reference, to: tasks, required: true}
              body: {type: text, required: true}
              kind:
                type: enum
                values: {question: {en: Question, de: Frage}, answer: {en: Answer, de: Antwort}}
                label: {en: Kind, de: Art}
            row: {title: body, subtitle: kind}
            filters:
              kind: {field: kind}
        """

    /// A server of `definition` (read at start: the file goes at once).
    static func tasks() throws -> CatalogTestServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("tasks.yaml")
        try definition.write(to: file, atomically: true, encoding: .utf8)
        return try CatalogTestServer(definition: file.path)
    }

    /// The tickets example's server with a few tickets (the default filtered state).
    static func tickets() async throws -> (CatalogTestServer, agent: String) {
        let server = try CatalogTestServer.tickets()
        let agent = try await server.create("agents", #"{"name":"Ana Díaz","email":"ana@example.com","team":"billing"}"#)
        let other = try await server.create("agents", #"{"name":"Bo Berg","email":"bo@example.com","team":"technical"}"#)
        for (subject, status, priority) in [("Printer jams", "open", 2), ("VPN drops", "pending", 1), ("Password reset", "solved", 4)] {
            _ = try await server.create(
                "tickets", #"{"subject":"\#(subject)","status":"\#(status)","priority":\#(priority),"opened":"2026-11-20","assigneeID":"\#(other)"}"#)
        }
        return (server, agent)
    }

    static func empty(_ response: HTTPResponse) -> [String: String]? {
        response.json?["empty"] as? [String: String]
    }

    /// The default state, `{filters}` read as a person reads them: labels and values in the
    /// request's language, `oneOf` values joined with "or", filters with "and", a reference by
    /// its item's title.
    @Test(arguments: [
        (
            "en-US", "/v1/tickets?status=closed", "No Matches",
            "No items match Status: Closed. Try changing the filters."
        ),
        (
            "de-DE", "/v1/tickets?status=closed", "Keine Treffer",
            "Keine Einträge entsprechen Status: Geschlossen. Versuchen Sie es mit anderen Filtern."
        ),
        (
            "en-US", "/v1/tickets?status=solved,closed&priority=2", "No Matches",
            "No items match Status: Solved or Closed and Priority ≤ 2. Try changing the filters."
        ),
        (
            "de-DE", "/v1/tickets?status=solved,closed&priority=2", "Keine Treffer",
            "Keine Einträge entsprechen Status: Gelöst oder Geschlossen und Priorität ≤ 2. Versuchen Sie es mit anderen Filtern."
        ),
        (
            "de-DE", "/v1/tickets?assignee={agent}&view=table", "Keine Treffer",
            "Keine Einträge entsprechen Zuständig: Ana Díaz. Versuchen Sie es mit anderen Filtern."
        ),
    ])
    func filtersThatKeepNothingAnswerTheFilteredState(language: String, target: String, title: String, description: String) async throws {
        let (server, agent) = try await Self.tickets()
        let response = try await server.get(target.replacingOccurrences(of: "{agent}", with: agent), language: language)
        #expect(response.status == 200)
        #expect((response.json?["rows"] as? [Any])?.isEmpty == true)
        let empty = try #require(Self.empty(response))
        #expect(empty["title"] == title)
        #expect(empty["description"] == description)
        #expect(empty["image"] == "line.3.horizontal.decrease.circle")
    }

    /// A search's state wins over the filters' (its query is what the user typed), with
    /// filters given or not; a list with nothing to filter shows the collection's own.
    @Test(arguments: [
        ("en-US", "/v1/tickets?q=zzz", "No Results for \u{201C}zzz\u{201D}"),
        ("de-DE", "/v1/tickets?q=zzz&status=closed", "Keine Ergebnisse für \u{201E}zzz\u{201C}"),
        ("en-US", "/v1/tickets?q=printer&status=closed", "No Results for \u{201C}printer\u{201D}"),
    ])
    func aSearchThatFindsNothingAnswersTheSearchState(language: String, target: String, title: String) async throws {
        let (server, _) = try await Self.tickets()
        let response = try await server.get(target, language: language)
        #expect(response.status == 200)
        #expect(Self.empty(response)?["title"] == title)
        #expect(Self.empty(response)?["image"] == "magnifyingglass")
    }

    @Test(arguments: [("en-US", "No Tickets"), ("de-DE", "Keine Tickets")])
    func aListWithNothingAtAllAnswersTheCollectionsState(language: String, title: String) async throws {
        let server = try CatalogTestServer.tickets()
        let response = try await server.get("/v1/tickets", language: language)
        #expect(Self.empty(response)?["title"] == title)
        #expect(Self.empty(response)?["image"] == "tray")
        let filled = try await Self.tickets().0.get("/v1/tickets?status=open", language: language)
        #expect(filled.json?["empty"] is NSNull, "a page with rows has no empty state")
    }

    /// The definition's own filtered state, on a top-level list (rows and table) and the default
    /// one on a child list: the parent is no filter.
    @Test(arguments: [
        ("en-US", "Nothing for Status: Done", "Change the filters.", "No items match Kind: Answer. Try changing the filters."),
        (
            "de-DE", "Nichts für Status: Erledigt", "Ändern Sie die Filter.",
            "Keine Einträge entsprechen Art: Antwort. Versuchen Sie es mit anderen Filtern."
        ),
    ])
    func aDefinedFilteredStateAndAChildListsDefault(language: String, title: String, description: String, childDescription: String) async throws {
        let server = try Self.tasks()
        let task = try await server.create("tasks", #"{"name":"Write","status":"open"}"#)
        _ = try await server.create("tasks/\(task)/notes", #"{"body":"Why?","kind":"question"}"#)
        for target in ["/v1/tasks?status=done", "/v1/tasks?status=done&view=table"] {
            let response = try await server.get(target, language: language)
            let empty = try #require(Self.empty(response), "\(target)")
            #expect(empty["title"] == title)
            #expect(empty["description"] == description)
            #expect(empty["image"] == "line.3.horizontal.decrease")
        }
        let child = try await server.get("/v1/tasks/\(task)/notes?kind=answer", language: language)
        #expect(child.status == 200)
        #expect(Self.empty(child)?["description"] == childDescription)
        let other = try await server.create("tasks", #"{"name":"Read"}"#)
        let none = try await server.get("/v1/tasks/\(other)/notes", language: language)
        #expect(Self.empty(none)?["title"] == (language == "de-DE" ? "Keine Einträge" : "No Items"), "a child list without notes")
    }

    /// `"{team} · {priority}"` without a team is the priority alone, in rows, the table's cells
    /// and compact line, and the change feed's upserts; with neither it is absent.
    @Test(arguments: [("en-US", "1,200"), ("de-DE", "1.200")])
    func aMissingPlaceholderDropsItsSeparatorOnPagesAndInTheFeed(language: String, priority: String) async throws {
        let server = try Self.tasks()
        let start = try await server.get("/v1/tasks/changes")
        let token = try #require(start.json?["next"] as? String)
        _ = try await server.create("tasks", #"{"name":"A both","team":"Ops","priority":1200}"#)
        _ = try await server.create("tasks", #"{"name":"B no team","priority":1200}"#)
        _ = try await server.create("tasks", #"{"name":"C no priority","team":"Ops"}"#)
        _ = try await server.create("tasks", #"{"name":"D neither"}"#)
        let expected: [String?] = ["Ops · \(priority)", priority, "Ops", nil]

        let page = try await server.get("/v1/tasks", language: language)
        let rows = try #require(page.json?["rows"] as? [[String: Any]])
        #expect(rows.map { $0["subtitle"] as? String } == expected)
        #expect(rows[3]["subtitle"] is NSNull)

        let table = try await server.get("/v1/tasks?view=table", language: language)
        let tableRows = try #require(table.json?["rows"] as? [[String: Any]])
        #expect(tableRows.map { ($0["cells"] as? [String: String])?["line"] } == expected.map { $0 ?? "\u{2014}" })
        #expect(tableRows.map { ($0["compact"] as? [String: Any])?["subtitle"] as? String } == expected)

        let feed = try await server.get("/v1/tasks/changes?since=\(token)", language: language)
        let changes = try #require(feed.json?["changes"] as? [[String: Any]])
        let byName = Dictionary(
            uniqueKeysWithValues: changes.compactMap { change -> (String, [String: Any])? in
                guard let row = change["row"] as? [String: Any], let name = row["title"] as? String else { return nil }
                return (name, change)
            })
        let names = ["A both", "B no team", "C no priority", "D neither"]
        #expect(names.map { (byName[$0]?["row"] as? [String: Any])?["subtitle"] as? String } == expected)
        #expect(names.map { (byName[$0]?["cells"] as? [String: String])?["line"] } == expected.map { $0 ?? "\u{2014}" })
    }
}
