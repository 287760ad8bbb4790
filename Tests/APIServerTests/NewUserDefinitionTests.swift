import Foundation
import HTTPTestSupport
import Testing

/// What a new user's own definition meets, on a live server over a real SQLite file: blank
/// titles show a placeholder everywhere a title is shown, fields without a label are titled by
/// their names' words, and messages count in the right number; in English and German.
@Suite("A new user's definition, served")
struct NewUserDefinitionTests {
    static let definition = """
        rowserver: 1
        collections:
          teams:
            idPrefix: tea
            title: Teams
            fields:
              name: {type: text}
            row: {title: name, placeholder: {en: Unnamed team, de: Unbenanntes Team}}
            sort: [name]
          players:
            idPrefix: ply
            title: Players
            fields:
              givenName: {type: text}
              familyName: {type: text}
              teamID: {type: reference, to: teams, embed: team, link: team}
              unitPrice: {type: decimal, scale: 1}
              emailURL: {type: text, maxLength: 1}
            row: {title: "{givenName} {familyName}", subtitle: teamID}
            sort: [givenName]
            sections: {by: teamID, name: team}
            filters: {price: {field: unitPrice}}
            table: {columns: [givenName, teamID, unitPrice, emailURL]}
        """

    static func server() throws -> (CatalogTestServer, URL) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("new-user-\(UUID().uuidString).yaml")
        try definition.write(to: file, atomically: true, encoding: .utf8)
        return (try CatalogTestServer(definition: file.path), file)
    }

    static func rows(_ response: HTTPResponse) -> [[String: Any]] { response.json?["rows"] as? [[String: Any]] ?? [] }

    /// (Accept-Language, the team placeholder, "Untitled").
    static let languages: [(String, String, String)] = [("en-US", "Unnamed team", "Untitled"), ("de-DE", "Unbenanntes Team", "Ohne Titel")]

    @Test(arguments: languages)
    func aBlankTitleShowsThePlaceholderWhereverATitleIsShown(language: String, team: String, untitled: String) async throws {
        let (server, file) = try Self.server()
        defer { try? FileManager.default.removeItem(at: file) }
        let otters = try await server.create("teams", #"{"name":"Otters"}"#)
        let nameless = try await server.create("teams", #"{"name":"  "}"#)
        let ada = try await server.create("players", #"{"givenName":"Ada","familyName":"Lovelace","teamID":"\#(otters)"}"#)
        let nobody = try await server.create("players", #"{"teamID":"\#(nameless)"}"#)

        // Rows, in both lists; the team's blank name sorts first, as its blank key does.
        let teams = Self.rows(try await server.get("/v1/teams", language: language))
        #expect(teams.map { $0["title"] as? String } == [team, "Otters"])
        let players = Self.rows(try await server.get("/v1/players", language: language))
        #expect(players.map { $0["id"] as? String } == [nobody, ada])
        #expect(players.map { $0["title"] as? String } == [untitled, "Ada Lovelace"])
        #expect(players.map { $0["subtitle"] as? String } == [team, "Otters"], "a reference shows its item's title")

        // Sections headed by the referenced team, the table's cells and compact titles.
        let grouped = try await server.get("/v1/players?group=team", language: language)
        let sections = try #require(grouped.json?["sections"] as? [[String: Any]])
        #expect(sections.map { $0["header"] as? String } == [team, "Otters"])
        let table = Self.rows(try await server.get("/v1/players?view=table", language: language))
        #expect(table.map { ($0["compact"] as? [String: Any])?["title"] as? String } == [untitled, "Ada Lovelace"])
        #expect(table.map { ($0["cells"] as? [String: String])?["teamID"] } == [team, "Otters"])

        // The detail embeds the team as its row shows it.
        let detail = try await server.get("/v1/players/\(nobody)", language: language)
        #expect((detail.json?["team"] as? [String: Any])?["name"] as? String == team)

        // The change feed writes its rows as the list does.
        let start = try await server.get("/v1/players/changes")
        let token = try #require(start.json?["next"] as? String)
        #expect(try await server.send("PATCH", "/v1/players/\(ada)", json: #"{"givenName":null,"familyName":""}"#).status == 200)
        let feed = try await server.get("/v1/players/changes?since=\(token)&view=table", language: language)
        let change = try #require((feed.json?["changes"] as? [[String: Any]])?.first)
        #expect((change["row"] as? [String: Any])?["title"] as? String == untitled)
        #expect((change["compact"] as? [String: Any])?["title"] as? String == untitled)

        // Search does not find the placeholder's words: only what the items hold.
        let word = String(untitled.split(separator: " ")[0])
        #expect(Self.rows(try await server.get("/v1/players?q=\(word)", language: language)).isEmpty)
        let teamWord = String(team.split(separator: " ")[0])
        #expect(Self.rows(try await server.get("/v1/teams?q=\(teamWord)", language: language)).isEmpty)
    }

    @Test(arguments: ["en-US", "de-DE"])
    func columnsOfFieldsWithoutLabelAreTitledByTheirNamesWords(language: String) async throws {
        let (server, file) = try Self.server()
        defer { try? FileManager.default.removeItem(at: file) }
        let response = try await server.get("/v1/players?view=table", language: language)
        let columns = try #require(response.json?["columns"] as? [[String: Any]])
        #expect(columns.map { $0["title"] as? String } == ["Given name", "Team ID", "Unit price", "Email URL"])
    }

    @Test func problemsCountInTheRightNumber() async throws {
        let (server, file) = try Self.server()
        defer { try? FileManager.default.removeItem(at: file) }
        let write = try await server.send("POST", "/v1/players", json: #"{"unitPrice":1.25,"emailURL":"ab"}"#)
        #expect(write.status == 422)
        let details = ((write.json?["errors"] as? [[String: Any]]) ?? []).map { $0["detail"] as? String }
        #expect(
            details == [
                "Must be a number with at most 1 digit after the decimal point.", "Must be at most 1 character (Unicode scalars) long.",
            ])
        let filter = try await server.get("/v1/players?price=1.25")
        #expect(filter.status == 400)
        #expect(filter.json?["detail"] as? String == "price must be a number with at most 1 fraction digit.")
    }
}
