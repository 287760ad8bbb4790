import Testing

@testable import Storage

/// What a PostgreSQL failure becomes as a `StoreError`, without a server: transient or not, and
/// never confused with a SQLite result code.
@Suite("PostgreSQL failures")
struct PostgresFailureTests {
    static let transience: [(sqlstate: String?, transient: Bool)] = [
        ("08000", true), ("08006", true), ("08001", true), ("57P01", true), ("57P02", true), ("57P03", true),
        ("53000", true), ("53100", true), ("53200", true), ("53300", true), ("40001", true), ("40P01", true), ("55P03", true),
        ("23505", false), ("23503", false), ("42601", false), ("42P01", false), ("22021", false), ("25P02", false),
        ("57014", false), ("40002", false), ("55000", false), ("XX000", false), ("P0001", false), (nil, false),
    ]

    @Test(arguments: transience)
    func onlyFailuresOfTheMomentAreTransient(_ sqlstate: String?, _ transient: Bool) throws {
        let failure = PostgresFailure(sqlstate: sqlstate, message: "it failed")
        #expect(failure.isTransient == transient)
        #expect(failure.storeError == .postgres(failure), "the SQLSTATE travels as itself")
        #expect(failure.storeError.isTransient == transient)
        #expect(failure.description == "PostgreSQL\(sqlstate.map { " \($0)" } ?? ""): it failed")
    }

    @Test func aLostConnectionIsTransientWhateverItsSQLState() {
        #expect(PostgresFailure(sqlstate: "42601", message: "server closed the connection", connectionLost: true).storeError.isTransient)
        #expect(PostgresFailure(sqlstate: nil, message: "server closed the connection", connectionLost: true).storeError.isTransient)
    }

    /// A SQLSTATE whose digits read like a transient SQLite code is still judged as a SQLSTATE,
    /// and the reverse: each engine's codes are its own.
    @Test(arguments: [("00005", 5), ("00010", 10), ("23505", 2067), ("42601", 13)])
    func engineCodesAreNeverReadAsTheOtherEngines(_ sqlstate: String, _ sqliteCode: Int32) {
        #expect(!StoreError.postgres(PostgresFailure(sqlstate: sqlstate, message: "m")).isTransient, "\(sqlstate)")
        let sqlite = StoreError.sqlite(SQLiteFailure(extendedResultCode: sqliteCode, message: "m"))
        #expect(sqlite.isTransient == SQLiteFailure.transientPrimaryCodes.contains(sqliteCode & 0xFF))
        #expect(sqlite != .postgres(PostgresFailure(sqlstate: sqlstate, message: "m")))
    }

    @Test(arguments: ["2350", "235055", "2350a", "23 05", ""])
    func malformedSQLStatesAreDropped(_ sqlstate: String) {
        #expect(PostgresFailure(sqlstate: sqlstate, message: "m").sqlstate == nil)
    }
}

extension StoreError {
    /// The SQLSTATE of a PostgreSQL failure; nil for any other error.
    var sqlstate: String? {
        if case .postgres(let failure) = self { failure.sqlstate } else { nil }
    }
}
