import Foundation
import GRDB
import Testing

@testable import Storage

/// Against a real server: parameters and results in text format, prepared statements, failures
/// and what they become, transactions, LISTEN/NOTIFY.
@Suite("PostgreSQL connection", .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.missingReason))
struct PostgresConnectionTests {
    /// A value sent as a parameter, cast to `type`, and what the server must find it equal to.
    struct RoundTrip: Sendable, CustomTestStringConvertible {
        var value: PostgresValue
        var type: String
        var literal: String
        var testDescription: String { "\(value) as \(type)" }
    }

    static let roundTrips: [RoundTrip] = [
        RoundTrip(value: .text(""), type: "text", literal: "''"),
        RoundTrip(value: .text("Grüße, 東京 🚀 l'été \\ \"quoted\""), type: "text", literal: "'Grüße, 東京 🚀 l''été \\ \"quoted\"'"),
        RoundTrip(value: .integer(0), type: "int8", literal: "0"),
        RoundTrip(value: .integer(-42), type: "int8", literal: "-42"),
        RoundTrip(value: .integer(.max), type: "int8", literal: "'9223372036854775807'"),
        RoundTrip(value: .integer(.min), type: "int8", literal: "'-9223372036854775808'"),
        RoundTrip(value: .double(0.1), type: "float8", literal: "'0.1'"),
        RoundTrip(value: .double(-0.0), type: "float8", literal: "'-0'"),
        RoundTrip(value: .double(1e300), type: "float8", literal: "'1e300'"),
        RoundTrip(value: .double(1.0 / 3.0), type: "float8", literal: "'0.3333333333333333'"),
        RoundTrip(value: .double(Double.leastNonzeroMagnitude), type: "float8", literal: "'4.9406564584124654e-324'"),
        RoundTrip(value: .double(-.infinity), type: "float8", literal: "'-Infinity'"),
        RoundTrip(value: .double(.nan), type: "float8", literal: "'NaN'"),
        RoundTrip(value: .bytes([]), type: "bytea", literal: "''"),
        RoundTrip(value: .bytes([0, 1, 0x7F, 0x80, 0xFF]), type: "bytea", literal: "'\\x00017f80ff'"),
        RoundTrip(value: .boolean(true), type: "bool", literal: "true"),
        RoundTrip(value: .boolean(false), type: "bool", literal: "false"),
    ]

    @Test(arguments: roundTrips)
    func everyKindOfValueReadsBackAsItWasSent(_ trip: RoundTrip) throws {
        let connection = try PostgresTestServer.connect()
        let sql = "SELECT $1::\(trip.type), $1::\(trip.type) IS NOT DISTINCT FROM \(trip.literal)::\(trip.type)"
        for result in [try connection.execute(sql, [trip.value]), try connection.query(sql, [trip.value])] {
            #expect(try result.boolean(0, 1) == true, "the server read another value than \(trip.literal)")
            let back = try #require(try Self.read(result, like: trip.value))
            #expect(Self.same(back, trip.value), "read back \(back)")
        }
    }

    @Test func nullsAreNullInEveryReader() throws {
        let connection = try PostgresTestServer.connect()
        let result = try connection.query(
            "SELECT $1::int8, $2::text, $3::bytea, $4::float8, $5::bool, $6::int8", [nil, nil, nil, nil, nil, .integer(7)])
        for column in 0..<5 {
            #expect(result.isNull(0, column))
            #expect(result.text(0, column) == nil)
            #expect(result.withText(0, column) { $0 == nil })
        }
        #expect(try result.integer(0, 0) == nil)
        #expect(try result.bytes(0, 2) == nil)
        #expect(try result.double(0, 3) == nil)
        #expect(try result.boolean(0, 4) == nil)
        #expect(!result.isNull(0, 5))
        #expect(try result.integer(0, 5) == 7)
    }

    @Test func aStatementIsPreparedOnceAndReusedAcrossCalls() throws {
        let connection = try PostgresTestServer.connect()
        let sql = "SELECT $1::int8 * 2 AS doubled"
        for integer: Int64 in [1, 2, 3] {
            let result = try connection.query(sql, [.integer(integer)])
            #expect(result.columnName(0) == "doubled")
            #expect(try result.integer(0, 0) == integer * 2)
        }
        let prepared = try connection.execute("SELECT name, from_sql FROM pg_prepared_statements WHERE statement = $1", [.text(sql)])
        #expect(prepared.rowCount == 1)
        #expect(prepared.text(0, 0)?.hasPrefix("rowserver_") == true)
        #expect(try prepared.boolean(0, 1) == false)
        try connection.query("SELECT $1::int8 * 3", [.integer(1)])
        #expect(try connection.execute("SELECT count(*) FROM pg_prepared_statements").integer(0, 0) == 2)
    }

    @Test func resultsCountTheRowsAStatementTouchedAndLendTheirBytes() throws {
        let connection = try PostgresTestServer.connect()
        try connection.execute("CREATE TEMP TABLE items (id int8 PRIMARY KEY, title text NOT NULL)")
        let insert = try connection.query("INSERT INTO items VALUES (1, 'one'), (2, 'two'), (3, 'three')")
        #expect(insert.commandTuples == 3)
        #expect(insert.commandStatus == "INSERT 0 3")
        #expect(try connection.query("UPDATE items SET title = upper(title) WHERE id > $1", [.integer(1)]).commandTuples == 2)
        let rows = try connection.query("SELECT id, title FROM items ORDER BY id")
        #expect(rows.rowCount == 3)
        #expect(rows.columnCount == 2)
        #expect(rows.withText(2, 1) { $0.map { Array($0) } } == Array("THREE".utf8))
        #expect(rows.text(3, 0) == nil, "a row out of range reads as NULL")
        #expect(throws: StoreError.self) { try rows.integer(0, 1) }
        // Only what changed rows counts as changed (a write's refusal is told from a partial write by it).
        #expect(insert.changedRows == 3)
        #expect(rows.changedRows == 0, "a SELECT's rows are not changes")
        #expect(try connection.query("DELETE FROM items WHERE id = $1", [.integer(3)]).changedRows == 1)
        #expect(
            try connection.query("MERGE INTO items USING (SELECT 1 AS id) AS s ON items.id = s.id WHEN MATCHED THEN UPDATE SET title = 'm'")
                .changedRows == 1)
        #expect(try connection.query("SELECT pg_notify('elsewhere', 'x')").changedRows == 0)
        let before = connection.changedRows
        try connection.run("UPDATE items SET title = ? WHERE id <= ?", ["x".databaseValue, 2.databaseValue])
        _ = try connection.insert("INSERT INTO items VALUES (?, ?)", [7.databaseValue, "seven".databaseValue], returning: "id")
        try connection.each("SELECT id FROM items", []) { _ in true }
        #expect(connection.changedRows == before + 3)
    }

    /// A statement that fails, what it must fail with, and a piece of the message.
    struct FailingStatement: Sendable, CustomTestStringConvertible {
        var setup: [String] = []
        var sql: String
        var parameters: [PostgresValue?] = []
        var sqlstate: String
        var message: String
        var testDescription: String { "\(sqlstate): \(sql)" }
    }

    static let failingStatements: [FailingStatement] = [
        FailingStatement(
            setup: ["CREATE TEMP TABLE items (id int8 PRIMARY KEY)", "INSERT INTO items VALUES (1)"], sql: "INSERT INTO items VALUES ($1)",
            parameters: [.integer(1)], sqlstate: "23505", message: "duplicate key value violates unique constraint \"items_pkey\""),
        FailingStatement(sql: "SELEC 1", sqlstate: "42601", message: "syntax error"),
        FailingStatement(sql: "SELECT * FROM no_such_table", sqlstate: "42P01", message: "no_such_table"),
        FailingStatement(sql: "SELECT 1 / $1::int4", parameters: [.integer(0)], sqlstate: "22012", message: "division by zero"),
        FailingStatement(sql: "SELECT $1::text", parameters: [.text("a\u{0}b")], sqlstate: "22021", message: "NUL"),
    ]

    @Test(arguments: failingStatements)
    func aFailingStatementNamesItsSQLStateAndTheConnectionStaysUsable(_ statement: FailingStatement) throws {
        let connection = try PostgresTestServer.connect()
        for sql in statement.setup { try connection.execute(sql) }
        for prepared in [false, true] {
            let error = try #require(throws: StoreError.self) {
                _ = try prepared ? connection.query(statement.sql, statement.parameters) : connection.execute(statement.sql, statement.parameters)
            }
            guard case .postgres(let failure) = error else {
                Issue.record("expected .postgres, got \(error)")
                continue
            }
            #expect(!error.isTransient)
            #expect(failure.sqlstate == statement.sqlstate)
            #expect(failure.message.contains(statement.message), "\(failure.message)")
            #expect(connection.isHealthy)
            #expect(try connection.query("SELECT 41 + 1").integer(0, 0) == 42)
        }
    }

    /// Texts differ by a page's LIMIT, which a client chooses: a connection keeps at most
    /// `preparedLimit` of them prepared, and every text still runs after the rest were dropped.
    @Test func preparedStatementsAreBoundedAndStillRunPastTheBound() throws {
        let connection = try PostgresTestServer.connect()
        let count = PostgresConnection.preparedLimit + 40
        for limit in 1...count {
            #expect(try connection.query("SELECT count(*) FROM generate_series(1, 1000) LIMIT \(limit)").integer(0, 0) == 1000)
            #expect(connection.preparedStatements <= PostgresConnection.preparedLimit)
        }
        #expect(connection.preparedStatements == count - PostgresConnection.preparedLimit)
        let held = try connection.query("SELECT count(*) FROM pg_prepared_statements").integer(0, 0)
        #expect(held == Int64(count - PostgresConnection.preparedLimit) + 1, "the server holds what the connection names, and this one")
    }

    @Test func aConnectionTheServerEndsIsUnavailableAndUnhealthy() throws {
        let connection = try PostgresTestServer.connect()
        let pid = try #require(try connection.query("SELECT pg_backend_pid()").integer(0, 0))
        let other = try PostgresTestServer.connect()
        #expect(try other.query("SELECT pg_terminate_backend($1::int4, 5000)", [.integer(pid)]).boolean(0, 0) == true)
        let error = try #require(throws: StoreError.self) { try connection.query("SELECT 1") }
        #expect(error.isTransient, "\(error)")
        guard case .postgres(let failure) = error, failure.sqlstate == nil || failure.sqlstate?.hasPrefix("57P") == true else { throw error }
        #expect(!connection.isHealthy)
    }

    enum Unreachable: CaseIterable, Sendable {
        /// Nothing listens on port 1 (tcpmux): refused at once.
        case closedPort
        /// The test server answers, but has no such database.
        case unknownDatabase
    }

    @Test(arguments: Unreachable.allCases)
    func aConnectionThatCannotOpenIsUnavailable(_ target: Unreachable) throws {
        let url =
            switch target {
            case .closedPort: "postgres://postgres@127.0.0.1:1/rowserver"
            case .unknownDatabase: try PostgresTestServer.url(database: PostgresTestServer.uniqueName("missing"))
            }
        let error = try #require(throws: StoreError.self) { try PostgresConnection(url: url, connectTimeout: 2) }
        guard case .postgres(let failure) = error else { throw error }
        #expect(error.isTransient, "\(failure)")
    }

    static func read(_ result: PostgresResult, like value: PostgresValue) throws -> PostgresValue? {
        switch value {
        case .text: result.text(0, 0).map(PostgresValue.text)
        case .integer: try result.integer(0, 0).map(PostgresValue.integer)
        case .double: try result.double(0, 0).map(PostgresValue.double)
        case .bytes: try result.bytes(0, 0).map(PostgresValue.bytes)
        case .boolean: try result.boolean(0, 0).map(PostgresValue.boolean)
        }
    }

    /// Equal, telling -0.0 from 0.0 and taking NaN as itself.
    static func same(_ left: PostgresValue, _ right: PostgresValue) -> Bool {
        guard case .double(let a) = left, case .double(let b) = right else { return left == right }
        return a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
    }
}
