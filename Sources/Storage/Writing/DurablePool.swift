import GRDB

/// A GRDB `DatabasePool` whose writer syncs every commit (`synchronous = FULL`): a write is
/// answered only once it would survive a power cut, not only a crash of the process.
///
/// Why not `Configuration.prepareDatabase`: a pool runs it first and then `setUpWALMode`, which
/// sets `synchronous = NORMAL` on the writer (GRDB's `Database.setUpWALMode`; in WAL mode NORMAL
/// syncs at checkpoints only, so the last commits can be lost with the machine). The pragma is
/// per connection and the readers never write, so the writer's is the one that counts.
enum DurablePool {
    static func open(path: String, configuration: Configuration) throws -> DatabasePool {
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        return pool
    }
}
