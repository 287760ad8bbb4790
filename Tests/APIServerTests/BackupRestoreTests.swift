import Foundation
import GRDB
import HTTPTestSupport
import Storage
import Testing

/// `rowserver backup` during a write load, and `rowserver restore` into a fresh file and into
/// the file of the running server.
@Suite("rowserver backup and restore", .runsOnce("rowserver processes on SQLite files of their own"))
struct BackupRestoreTests {
    @Test func aBackupTakenDuringWritesRestoresEveryWriteAcknowledgedBeforeIt() async throws {
        let server = try ServerProcess()
        let db = server.directory.appendingPathComponent("test.sqlite").path
        let created = try KeysCommandTests.run(["keys", "create", "--db", db, "--name", "load", "--scope", "write"])
        let secret = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let port = server.port
        let backup = server.directory.appendingPathComponent("backup.sqlite").path
        // The load and the backup on one thread of their own: in the full suite the cooperative
        // pool stalls for seconds, and the writers must still be writing when the backup runs.
        let (log, before, backedUp) = try await onThread { () throws -> (Acknowledged, [String], Int32) in
            let log = Acknowledged()
            let writers = DispatchGroup()
            for writer in 0..<4 {
                writers.enter()
                Thread {
                    do { try Self.write(port: port, secret: secret, writer: writer, into: log) } catch { log.fail() }
                    writers.leave()
                }.start()
            }
            _ = log.wait(forCount: 40)
            // Answered before the command starts: the backup must hold every one of these.
            let before = log.ids
            let status = try KeysCommandTests.run(["backup", backup, "--db", db]).status
            // The writers stop by themselves 40 writes later: they go on during and after it.
            log.stop(atCount: log.ids.count + 40)
            writers.wait()
            return (log, before, status)
        }
        #expect(backedUp == 0)
        #expect(before.count >= 40)
        #expect(log.ids.count >= log.limit)
        #expect(log.failures == 0)
        let all = log.ids
        let later = try #require(all.last)

        // Restored into a new file: sound, and holding every write acknowledged before the backup.
        let fresh = server.directory.appendingPathComponent("fresh.sqlite").path
        let restored = try KeysCommandTests.run(["restore", backup, "--db", fresh])
        #expect(restored.status == 0, "\(restored.error)")
        #expect(try Self.integrityProblems(at: fresh) == nil)
        let second = try ServerProcess(arguments: ["--db", fresh])
        for id in before { #expect(try await fetch(port: second.port, "/v1/products/\(id)").status == 200, "\(id)") }
        #expect(try await fetch(port: second.port, "/v1/products/\(later)").status == 404, "written after the backup")

        // Restored into the running server's file: its next answers are the backup's.
        let list = "/v1/products?limit=3"
        let tag = try #require(try await fetch(port: port, list).header("ETag"))
        let token = try #require(try await fetch(port: port, "/v1/products/changes").json?["next"] as? String)
        let inPlace = try KeysCommandTests.run(["restore", backup, "--db", db])
        #expect(inPlace.status == 0, "\(inPlace.error)")
        #expect(try Self.integrityProblems(at: db) == nil)
        #expect(try await fetch(port: port, "/v1/products/\(later)").status == 404)
        #expect(try await fetch(port: port, "/v1/products/\(try #require(before.last))").status == 200)
        #expect(try await fetch(port: port, list, headers: [("If-None-Match", tag)]).status == 200, "no tag from before the restore matches")
        let expired = try await fetch(port: port, "/v1/products/changes?since=\(token)")
        #expect(expired.status == 410)
        #expect(expired.json?["code"] as? String == "CHANGES_EXPIRED")
        // Writing goes on after it, and the feed from a new token follows.
        let fresher = try #require(try await fetch(port: port, "/v1/products/changes").json?["next"] as? String)
        let written = try await fetch(
            port: port, "POST", "/v1/products", headers: Self.headers(secret), body: Self.product("After the restore"))
        #expect(written.status == 201)
        let feed = try await fetch(port: port, "/v1/products/changes?since=\(fresher)")
        #expect((feed.json?["changes"] as? [[String: Any]])?.count == 1)
    }

    /// Writes products on one connection until told to stop; records each acknowledged id.
    static func write(port: Int, secret: String, writer: Int, into log: Acknowledged) throws {
        let client = try RawHTTPClient(port: port)
        var number = 0
        while !log.isDone {
            number += 1
            let response = try client.request("POST", "/v1/products", headers: headers(secret), body: product("Load \(writer)-\(number)"))
            if response.status == 201, let id = response.json?["id"] as? String { log.append(id) } else { log.fail() }
        }
    }

    static func headers(_ secret: String) -> [(String, String)] {
        [("Authorization", "Bearer \(secret)"), ("Content-Type", "application/json")]
    }

    static func product(_ name: String) -> [UInt8] {
        Array(#"{"name":"\#(name)","price":{"minorUnits":100,"currency":"USD"}}"#.utf8)
    }

    /// The ids the server acknowledged, in the order their answers arrived; the writers stop
    /// at `limit` of them (or on a failure).
    final class Acknowledged: @unchecked Sendable {
        private let condition = NSCondition()
        private var stored: [String] = []
        private var failed = 0
        private var stopAt = 5_000

        var ids: [String] { condition.withLock { stored } }
        var failures: Int { condition.withLock { failed } }
        var limit: Int { condition.withLock { stopAt } }
        var isDone: Bool { condition.withLock { failed > 0 || stored.count >= stopAt } }
        func stop(atCount count: Int) { condition.withLock { stopAt = count } }

        func append(_ id: String) {
            condition.withLock {
                stored.append(id)
                condition.broadcast()
            }
        }

        func fail() {
            condition.withLock {
                failed += 1
                condition.broadcast()
            }
        }

        /// Blocks until `count` ids are in, or a minute passes; whether they are.
        func wait(forCount count: Int) -> Bool {
            let deadline = Date().addingTimeInterval(60)
            return condition.withLock {
                while stored.count < count && failed == 0 && condition.wait(until: deadline) {}
                return stored.count >= count
            }
        }
    }

    /// `PRAGMA integrity_check` of the store at `path`: nil when it is sound, else what SQLite found.
    static func integrityProblems(at path: String) throws -> String? {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        let found = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        return found == ["ok"] ? nil : found.joined(separator: "; ")
    }
}
