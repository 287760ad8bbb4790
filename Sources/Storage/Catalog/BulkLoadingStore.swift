/// A store that `generate` and `import` fill: many items in one transaction, all or none.
public protocol BulkLoadingStore: AnyObject {
    /// Runs `body` with a loader inside one write transaction, committed when `body` returns
    /// (rolled back when it throws, or when an insert failed half written).
    func bulkLoad<T>(_ body: (CatalogBulkLoader) throws -> T) throws -> T
}

extension CatalogStore: BulkLoadingStore {}
