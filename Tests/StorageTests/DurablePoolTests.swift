import GRDB
import Testing

@testable import Storage

/// The writer of a store's pool syncs every commit; GRDB's own pool would sync at checkpoints only.
@Suite struct DurablePoolTests {
    @Test func theWriterSyncsEveryCommitWhereGRDBsPoolWouldNot() throws {
        let directory = try TemporaryDirectory()
        let plain = try DatabasePool(path: directory.path("plain.sqlite"))
        let durable = try DurablePool.open(path: directory.path("durable.sqlite"), configuration: Configuration())
        let pragma = "PRAGMA synchronous"
        // 1 = NORMAL, 2 = FULL: the first says what this type is for.
        #expect(try plain.writeWithoutTransaction { try Int.fetchOne($0, sql: pragma) } == 1)
        #expect(try durable.writeWithoutTransaction { try Int.fetchOne($0, sql: pragma) } == 2)
        #expect(try durable.writeWithoutTransaction { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
    }
}
