import Testing

@testable import Storage

/// `PostgresConnection.transaction`: kept when the body returns, gone when it throws or when a
/// statement in it failed.
@Suite("PostgreSQL transactions", .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.missingReason))
struct PostgresTransactionTests {
    func connectionWithItems() throws -> PostgresConnection {
        let connection = try PostgresTestServer.connect()
        try connection.execute("CREATE TEMP TABLE items (id int8 PRIMARY KEY)")
        return connection
    }

    func count(_ connection: PostgresConnection) throws(StoreError) -> Int64? {
        try connection.query("SELECT count(*) FROM items").integer(0, 0)
    }

    @Test func aBodyThatReturnsIsCommitted() throws {
        let connection = try connectionWithItems()
        let touched = try connection.transaction { () throws(StoreError) in
            try connection.query("INSERT INTO items VALUES ($1), ($2)", [.integer(1), .integer(2)]).commandTuples
        }
        #expect(touched == 2)
        // Had the transaction stayed open, this would undo the inserts.
        try connection.execute("ROLLBACK")
        #expect(try count(connection) == 2)
    }

    @Test func aBodyThatThrowsIsRolledBack() throws {
        let connection = try connectionWithItems()
        #expect(throws: StoreError.invariant("stop")) {
            try connection.transaction { () throws(StoreError) in
                try connection.query("INSERT INTO items VALUES ($1)", [.integer(1)])
                throw StoreError.invariant("stop")
            }
        }
        #expect(try count(connection) == 0)
        #expect(try connection.transaction { () throws(StoreError) in try count(connection) } == 0, "the connection takes a new transaction")
    }

    @Test func aFailedStatementThatTheBodyIgnoredIsNotCommitted() throws {
        let connection = try connectionWithItems()
        try connection.query("INSERT INTO items VALUES (1)")
        let error = try #require(throws: StoreError.self) {
            try connection.transaction { () throws(StoreError) in
                try connection.query("INSERT INTO items VALUES (2)")
                _ = try? connection.query("INSERT INTO items VALUES (1)")
            }
        }
        #expect(error.sqlstate == "25P02", "\(error)")
        #expect(!error.isTransient)
        #expect(try count(connection) == 1)
    }

    @Test func aTransactionInsideAnotherIsRefused() throws {
        let connection = try connectionWithItems()
        let error = try #require(throws: StoreError.self) {
            try connection.transaction { () throws(StoreError) in
                try connection.transaction { () throws(StoreError) in try connection.query("INSERT INTO items VALUES (1)") }
            }
        }
        guard case .invariant = error else { throw error }
        #expect(try count(connection) == 0)
    }
}
