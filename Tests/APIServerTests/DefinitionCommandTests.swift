import Foundation
import HTTPTestSupport
import Testing

/// The CLI on definition files: `check`, `serve --collections`, `openapi`, `import`.
@Suite("Definition commands", .runsOnce("rowserver processes on SQLite files of their own"))
struct DefinitionCommandTests {
    static let tickets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/tickets.yaml")
        .standardized.path

    /// Runs the binary to its end: exit status, standard output, standard error.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String, error: String) {
        let process = ChildProcess()
        process.executableURL = ServerProcess.binaryURL
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-cli-\(UUID().uuidString)-\(name)")
    }

    /// Removes the files, and a database's write-ahead log, shared memory and key beside it.
    func remove(_ urls: URL...) {
        for url in urls {
            for suffix in ["", "-wal", "-shm", ".key"] {
                try? FileManager.default.removeItem(at: URL(fileURLWithPath: url.path + suffix))
            }
        }
    }

    static let bad = """
        rowserver: 1
        collections:
          notes:
            idPrefix: nt
            title: Notes
            fields:
              name: {type: txt, label: Name}
            row: {title: nme}
        """

    @Test func checkReportsEveryMistakeWithItsLineAndColumn() throws {
        let file = temporary("bad.yaml")
        try Self.bad.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try run(["check", file.path])
        #expect(result.status == 1)
        let lines = result.error.split(separator: "\n")
        #expect(lines.count >= 3)
        #expect(lines.allSatisfy { $0.hasPrefix(file.path + ":") })
        #expect(result.error.contains(":4:15:") && result.error.contains("[bad-id-prefix]"))
        let good = try run(["check", Self.tickets])
        #expect(good.status == 0)
        #expect(good.output.contains("agents, tickets"))
    }

    /// The mistake a definition written before money bounds were per currency makes: `check`
    /// names its place and code and says what to write.
    @Test func checkRefusesOnePlainMoneyBoundForSeveralCurrencies() throws {
        let tickets = try String(contentsOfFile: Self.tickets, encoding: .utf8)
        let bound = "maximum: {USD: 5000.00, EUR: 5000.00, JPY: 750000}"
        #expect(tickets.contains(bound))
        let text = tickets.replacingOccurrences(of: bound, with: "maximum: 10000")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("maximum: 10000") }) + 1
        let column = try #require(lines[line - 1].range(of: "10000")).lowerBound.utf16Offset(in: lines[line - 1]) + 1
        let file = temporary("tickets.yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try run(["check", file.path])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("\(file.path):\(line):\(column): `maximum` of field `tickets.credit` is one number for several currencies"))
        #expect(result.error.contains("`maximum: {USD: 100.00, EUR: 100.00, JPY: 10000}`"))
        #expect(result.error.contains("[ambiguous-money-bound]"))
    }

    @Test func serveRefusesABadDefinitionWithoutTouchingTheDatabase() throws {
        let file = temporary("bad.yaml")
        let database = temporary("never.sqlite")
        try Self.bad.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try run(["serve", "--port", "0", "--db", database.path], environment: ["ROWSERVER_COLLECTIONS": file.path])
        #expect(result.status == 1)
        #expect(result.error.contains("[bad-id-prefix]"))
        #expect(!FileManager.default.fileExists(atPath: database.path))
    }

    @Test func openapiPrintsTheDocumentOfTheDefinition() throws {
        let result = try run(["openapi", "--collections", Self.tickets])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("openapi: \"3.1.0\""))
        #expect(result.output.contains("\"/v1/tickets/{id}\":"))
    }

    @Test func importValidatesEveryLineByTheDefinition() throws {
        let database = temporary("tickets.sqlite")
        let lines = temporary("agents.jsonl")
        defer {
            remove(database, lines)
        }
        try """
        {"name":"Ana","email":"ana@example.com","team":"billing"}
        {"name":"","email":"nope","team":"sales"}

        {"name":"Bo","email":"bo@example.com"}
        """.write(to: lines, atomically: true, encoding: .utf8)
        let refused = try run(["import", "agents", lines.path, "--collections", Self.tickets, "--db", database.path])
        #expect(refused.status == 1)
        #expect(refused.error.contains("line 2: /name"))
        #expect(refused.error.contains("nothing was imported"))
        try """
        {"name":"Ana","email":"ana@example.com","team":"billing"}
        {"name":"Bo","email":"bo@example.com"}
        """.write(to: lines, atomically: true, encoding: .utf8)
        let imported = try run(["import", "agents", lines.path, "--collections", Self.tickets, "--db", database.path])
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.error.contains("imported 2 agents") || imported.output.contains("imported 2 agents"))
    }
}

extension DefinitionCommandTests {
    @Test func generateFillsAnyDefinitionAndServeShowsIt() async throws {
        let database = temporary("generated.sqlite")
        defer { remove(database) }
        let result = try run(["generate", "--collections", Self.tickets, "--db", database.path, "--count", "4", "--count", "tickets=30"])
        #expect(result.status == 0, "\(result.error)")
        let again = try run(["generate", "--collections", Self.tickets, "--db", database.path])
        #expect(again.status == 1, "the same seed twice is refused")
        let bad = try run(["generate", "--collections", Self.tickets, "--db", database.path, "--count", "nope=-1"])
        #expect(bad.status != 0)
        let server = try ServerProcess(arguments: ["--collections", Self.tickets, "--db", database.path])
        let page = try await fetch(port: server.port, "/v1/tickets?limit=100")
        #expect((page.json?["rows"] as? [Any])?.count == 30)
    }
}

extension DefinitionCommandTests {
    @Test func importReadsCSVByItsName() throws {
        let database = temporary("csv.sqlite")
        let file = temporary("agents.csv")
        defer {
            remove(database, file)
        }
        try "name,email,team\n\"Díaz, Ana\",ana@example.com,billing\nBo,bo@example.com,\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try run(["import", "agents", file.path, "--collections", Self.tickets, "--db", database.path])
        #expect(result.status == 0, "\(result.error)")
        #expect((result.output + result.error).contains("imported 2 agents"))
        let bad = try run(["import", "agents", file.path, "--collections", Self.tickets, "--db", database.path, "--format", "xml"])
        #expect(bad.status != 0)
    }
}
