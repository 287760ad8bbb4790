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
        #expect(failure.storeError.isTransient == transient)
        switch failure.storeError {
        case .unavailable(let message): #expect(transient && message == "PostgreSQL\(sqlstate.map { " \($0)" } ?? ""): it failed")
        case .database(let code, _): #expect(!transient && code == PostgresFailure.resultCode(sqlstate))
        default: Issue.record("\(failure.storeError)")
        }
        #expect(PostgresFailure(failure.storeError) == failure, "the store can read the failure back")
    }

    @Test func aLostConnectionIsTransientWhateverItsSQLState() {
        #expect(PostgresFailure(sqlstate: "42601", message: "server closed the connection", connectionLost: true).storeError.isTransient)
        #expect(PostgresFailure(sqlstate: nil, message: "server closed the connection", connectionLost: true).storeError.isTransient)
    }

    @Test func resultCodesAreDistinctAndNeverATransientSQLiteCode() {
        let symbols = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var codes = Set<Int32>()
        for first in symbols {
            for second in symbols {
                for sqlstate in ["\(first)\(second)000", "\(first)\(second)P0\(second)", "\(second)\(first)ZZZ"] {
                    let code = PostgresFailure.resultCode(sqlstate)
                    codes.insert(code)
                    #expect(code > 0xFFFF, "above every SQLite extended code")
                    #expect(!StoreError.database(resultCode: code, message: sqlstate).isTransient, "\(sqlstate)")
                }
            }
        }
        #expect(codes.count == symbols.count * symbols.count * 3)
        #expect(PostgresFailure.resultCode("23505") == 0x4357_E150, "as documented: 0x4000_0000 | base36(23505) << 4")
    }

    @Test(arguments: [
        StoreError.database(resultCode: 2067, message: "UNIQUE constraint failed: items.id"),
        StoreError.database(resultCode: PostgresFailure.resultCode("23505"), message: "PostgreSQL 42601: the code says 23505"),
        StoreError.unavailable("the store is closing"),
        StoreError.invariant("PostgreSQL 23505: duplicate key"),
    ])
    func errorsThatNoPostgresFailureMadeAreNotReadAsOne(_ error: StoreError) {
        #expect(PostgresFailure(error) == nil)
    }

    @Test(arguments: ["2350", "235055", "2350a", "23 05", ""])
    func malformedSQLStatesAreDropped(_ sqlstate: String) {
        #expect(PostgresFailure(sqlstate: sqlstate, message: "m").sqlstate == nil)
    }
}
