import Foundation
import HTTPTestSupport
import ServerTestSupport
import Testing

/// PostgreSQL stopped (as a crash stops it) during a write load, then started again: every write
/// answered 2xx is there afterwards, every other answer is a 503 with `Retry-After`, and the
/// instance serves again without a restart.
@Suite(.enabled(if: TestStore.postgresURLForProcesses != nil, "needs PostgreSQL (ROWSERVER_TEST_POSTGRES)"), .runsOnce("on PostgreSQL in every run"))
struct PostgresFaultTests {
    @Test func writesThroughAnOutageAreAnswered503OrKept() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let server = try ServerProcess(arguments: ["--database", cluster.url])
        let secret = try KeysCommandTests.run(["keys", "create", "--database", cluster.url, "--name", "fault", "--scope", "write"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let port = server.port
        let outcome = try await onThread { () throws -> (log: BackupRestoreTests.Acknowledged, answers: Answers, healthDuringOutage: Int) in
            let log = BackupRestoreTests.Acknowledged()
            let answers = Answers()
            let writers = DispatchGroup()
            for writer in 0..<4 {
                writers.enter()
                Thread {
                    Self.write(port: port, secret: secret, writer: writer, log: log, answers: answers)
                    writers.leave()
                }.start()
            }
            _ = log.wait(forCount: 40)
            try cluster.run("pause")
            Thread.sleep(forTimeInterval: 1.5)
            let health = (try? RawHTTPClient(port: port).request("GET", "/health").status) ?? 0
            try cluster.run("resume")
            // Served again without a restart: 40 more writes acknowledged.
            let resumed = log.ids.count
            _ = log.wait(forCount: resumed + 40)
            log.stop(atCount: 0)
            writers.wait()
            return (log, answers, health)
        }
        let ids = outcome.log.ids
        #expect(outcome.healthDuringOutage == 503)
        #expect(outcome.answers.unexpected.isEmpty, "only 201 and 503: \(outcome.answers.unexpected.prefix(5))")
        #expect(outcome.answers.unavailable > 0, "the outage must have been met")
        #expect(outcome.answers.unavailableWithoutRetryAfter == 0)
        #expect(ids.count >= 80)
        for id in ids { #expect(try await fetch(port: port, "/v1/products/\(id)").status == 200, "\(id) was acknowledged") }
    }

    /// Writes until stopped; a refused connection or a socket error counts as unexpected.
    static func write(port: Int, secret: String, writer: Int, log: BackupRestoreTests.Acknowledged, answers: Answers) {
        var number = 0
        var client: RawHTTPClient?
        while !log.isDone {
            number += 1
            do {
                let connection = try client ?? RawHTTPClient(port: port)
                client = connection
                let response = try connection.request(
                    "POST", "/v1/products", headers: BackupRestoreTests.headers(secret), body: BackupRestoreTests.product("Fault \(writer)-\(number)")
                )
                switch response.status {
                case 201: if let id = response.json?["id"] as? String { log.append(id) }
                case 503: answers.unavailable(retryAfter: response.header("Retry-After"))
                default: answers.unexpected("\(response.status) \(response.text.prefix(200))")
                }
                if response.header("Connection") == "close" { client = nil }
            } catch {
                answers.unexpected("\(error)")
                client = nil
            }
        }
    }

    final class Answers: @unchecked Sendable {
        private let lock = NSLock()
        private var unavailableCount = 0
        private var withoutRetryAfter = 0
        private var others: [String] = []

        var unavailable: Int { lock.withLock { unavailableCount } }
        var unavailableWithoutRetryAfter: Int { lock.withLock { withoutRetryAfter } }
        var unexpected: [String] { lock.withLock { others } }

        func unavailable(retryAfter: String?) {
            lock.withLock {
                unavailableCount += 1
                if retryAfter == nil { withoutRetryAfter += 1 }
            }
        }

        func unexpected(_ answer: String) { lock.withLock { others.append(answer) } }
    }
}

/// A PostgreSQL server of the test's own (`scripts/postgres.sh`): one the test may stop and start.
struct PostgresCluster: Sendable {
    let url: String
    let folder: String

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../scripts/postgres.sh").standardized
        .path

    init() throws {
        let output = try Self.script(["start"])
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        guard let url = values["ROWSERVER_TEST_POSTGRES"], let folder = values["ROWSERVER_TEST_POSTGRES_DIR"] else {
            throw StoreFailure(description: "postgres.sh start printed \(output)")
        }
        self.url = url
        self.folder = folder
    }

    func run(_ command: String) throws { _ = try Self.script([command, folder]) }

    func stop() { _ = try? Self.script(["stop", folder]) }

    private static func script(_ arguments: [String]) throws -> String {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw StoreFailure(description: "postgres.sh \(arguments.joined(separator: " ")) failed") }
        return String(decoding: data, as: UTF8.self)
    }

    struct StoreFailure: Error, CustomStringConvertible {
        var description: String
    }
}
