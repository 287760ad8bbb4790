import GRDB

extension StoreError {
    /// The store's error for anything thrown while talking to the database.
    ///
    /// A `StoreError` thrown inside a GRDB closure comes back as itself; SQLite failures keep
    /// their extended result code (whether the failure may pass depends on it), with the
    /// message for logs; anything else is a bug.
    static func from(_ error: any Error) -> StoreError {
        switch error {
        case let error as StoreError:
            return error
        case let error as DatabaseError:
            return .sqlite(SQLiteFailure(extendedResultCode: error.extendedResultCode.rawValue, message: error.message ?? "no message"))
        default:
            return .invariant(String(describing: error))
        }
    }

    /// What `body` returns; what it throws, as `from` maps it: the shape of every call that
    /// talks to the database.
    @discardableResult
    static func catching<T>(_ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw from(error)
        }
    }
}
