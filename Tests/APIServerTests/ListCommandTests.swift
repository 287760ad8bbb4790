import Foundation
import HTTPTestSupport
import Testing

/// `rowserver list`: RowKit's terminal client against a running server.
@Suite("The list command", .runsOnce("rowserver processes on SQLite files of their own"))
struct ListCommandTests {
    /// Runs `rowserver list ARGUMENTS`; its exit status, standard output and standard error.
    static func list(_ arguments: [String]) async throws -> (status: Int32, output: String, error: String) {
        try await onThread { try KeysCommandTests.run(["list"] + arguments) }
    }

    @Test func aCollectionWhoseReadsNeedAKeyIsListedWithOne() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("list-key-\(UUID().uuidString).yaml")
        try KeyOnlyReadTests.definition.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let server = try ServerProcess(arguments: ["--collections", file.path])
        let db = server.directory.appendingPathComponent("test.sqlite").path
        let writer = try KeysCommandTests.run(["keys", "create", "--db", db, "--collections", file.path, "--name", "w", "--scope", "write"])
        let secret = writer.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let created = try await fetch(
            port: server.port, "POST", "/v1/notes", headers: [("Authorization", "Bearer \(secret)"), ("Content-Type", "application/json")],
            body: Array(#"{"text":"Listed with a key"}"#.utf8))
        #expect(created.status == 201)
        let url = "http://127.0.0.1:\(server.port)"
        let refused = try await Self.list(["notes", "--server", url])
        #expect(refused.status != 0)
        #expect(refused.error.contains("KEY_REQUIRED") || refused.error.contains("key"), "\(refused.error)")
        let listed = try await Self.list(["notes", "--server", url, "--key", secret])
        #expect(listed.status == 0, "\(listed.error)")
        #expect(listed.output.contains("Listed with a key"))
    }

    @Test func peopleByDepartmentPrintEveryPersonUnderTheirSection() async throws {
        let server = try ServerProcess()
        let all = try await fetch(port: server.port, "/v1/people?group=department&limit=200")
        let page = try JSONSerialization.jsonObject(with: Data(all.body)) as? [String: Any]
        let sections = try #require(page?["sections"] as? [[String: Any]])
        let result = try await Self.list(["people", "--group", "department", "--all", "--server", "http://127.0.0.1:\(server.port)"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let headers = lines.filter { !$0.hasPrefix(" ") }
        let rows = lines.filter { $0.hasPrefix("  ") }
        #expect(headers.map(String.init) == sections.compactMap { $0["header"] as? String })
        #expect(rows.count == sections.reduce(0) { $0 + (($1["rows"] as? [Any])?.count ?? 0) })
        #expect(headers.count + rows.count == lines.count)
    }

    @Test func aTablePrintsItsColumnTitlesAndOnePageByDefault() async throws {
        let server = try ServerProcess()
        let result = try await Self.list(["products", "--table", "--server", "http://127.0.0.1:\(server.port)"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 52)  // titles, rule, 50 rows
        #expect(lines.first?.contains("Name") == true)
        #expect(lines.dropFirst().first?.allSatisfy { $0 == "─" } == true)
    }

    struct FailureCase: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let failures: [FailureCase] = [
        FailureCase(arguments: ["nothing"], message: "No collection nothing"),
        FailureCase(arguments: ["people", "--group", "team"], message: "grouped by department"),
        FailureCase(arguments: ["departments", "--table"], message: "no table view"),
        FailureCase(arguments: ["people", "--pages", "0"], message: "--pages"),
    ]

    @Test(arguments: failures)
    func mistakesFailWithAMessage(_ testCase: FailureCase) async throws {
        let server = try ServerProcess()
        let result = try await Self.list(testCase.arguments + ["--server", "http://127.0.0.1:\(server.port)"])
        #expect(result.status != 0)
        #expect(result.error.contains(testCase.message), "\(result.error)")
    }

    @Test func anUnreachableServerIsSaidSo() async throws {
        let result = try await Self.list(["people", "--server", "http://127.0.0.1:1"])
        #expect(result.status != 0)
        #expect(result.error.contains("did not answer"), "\(result.error)")
    }
}
