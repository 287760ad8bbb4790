import GRDB

extension StoreError {
    /// The store's error for anything thrown while talking to the database.
    ///
    /// A `StoreError` thrown inside a GRDB closure comes back as itself; SQLite failures become
    /// `.unavailable` with the result code and message, for logs.
    static func from(_ error: any Error) -> StoreError {
        switch error {
        case let error as StoreError:
            return error
        case let error as DatabaseError:
            return .unavailable("SQLite \(error.extendedResultCode): \(error.message ?? "no message")")
        default:
            return .unavailable(String(describing: error))
        }
    }
}
