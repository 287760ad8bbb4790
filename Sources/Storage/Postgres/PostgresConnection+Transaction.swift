import CLibPQ

extension PostgresConnection {
    /// Runs `body` in one transaction: COMMIT when it returns, ROLLBACK when it throws
    /// (`PostgresPool.transaction`).
    ///
    /// A statement that fails inside aborts the transaction; should `body` catch that error and
    /// return anyway, PostgreSQL answers the COMMIT with a ROLLBACK, and this throws 25P02 (in
    /// failed transaction) rather than let the caller believe its writes were kept. A COMMIT that
    /// throws `.unavailable` for a lost connection leaves the outcome unknown.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        // A BEGIN inside a transaction is only a warning: the outer COMMIT would end both.
        if isHealthy, PQtransactionStatus(handle) != PQTRANS_IDLE {
            throw StoreError.invariant("a PostgreSQL transaction is already open on this connection")
        }
        return try StoreError.catching { try PostgresPool.transaction(self, begin: "BEGIN") { try body() } }
    }
}
