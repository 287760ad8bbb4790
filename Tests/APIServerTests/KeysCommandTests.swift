import Foundation
import HTTPTestSupport
import Testing

/// `rowserver keys` against the file a running server serves: a new key writes at once, a
/// revoked one is refused at once, and no command prints a secret twice.
@Suite("rowserver keys create, list and revoke", .runsOnce("rowserver processes on SQLite files of their own"))
struct KeysCommandTests {
    @Test func aKeyMadeWhileTheServerRunsWritesAndStopsWhenRevoked() async throws {
        let server = try ServerProcess()
        let db = server.directory.appendingPathComponent("test.sqlite").path
        let created = try Self.run(["keys", "create", "--db", db, "--name", "ci job", "--scope", "write:products"])
        #expect(created.status == 0)
        let secret = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(secret.hasPrefix("rsk_"))
        let id = try #require(secret.split(separator: "_").dropFirst().first.map(String.init))
        #expect(created.error.contains(id))

        let body = Array(#"{"name":"Key lamp","price":{"minorUnits":100,"currency":"USD"}}"#.utf8)
        let headers = [("Authorization", "Bearer \(secret)"), ("Content-Type", "application/json")]
        #expect(try await fetch(port: server.port, "POST", "/v1/products", headers: headers, body: body).status == 201)
        // write:products does not cover people.
        let people = try await fetch(port: server.port, "POST", "/v1/people", headers: headers, body: Array("{}".utf8))
        #expect(people.status == 403)

        let listed = try Self.run(["keys", "list", "--db", db])
        #expect(listed.status == 0)
        #expect(listed.output.contains(id) && listed.output.contains("ci job") && listed.output.contains("write:products"))
        #expect(!listed.output.contains(secret))

        #expect(try Self.run(["keys", "revoke", id, "--db", db]).status == 0)
        let refused = try await fetch(port: server.port, "POST", "/v1/products", headers: headers, body: body)
        #expect(refused.status == 401)
        #expect(refused.json?["code"] as? String == "INVALID_KEY")
        #expect(try Self.run(["keys", "revoke", id, "--db", db]).status != 0, "a key is revoked once")
    }

    @Test(arguments: [["--scope", "admin"], ["--scope", "write:nothing"], []])
    func aKeyWithAScopeThatIsNotOneIsRefused(scopes: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let result = try Self.run(["keys", "create", "--db", directory.appendingPathComponent("k.sqlite").path, "--name", "x"] + scopes)
        #expect(result.status != 0)
        #expect(result.output.isEmpty, "no secret for a refused key")
    }

    /// Runs `rowserver ARGUMENTS`; its exit status, standard output and standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = ChildProcess()
        process.executableURL = ServerProcess.binaryURL
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, out, err)
    }
}
