import Domain

/// What the SQLite and the PostgreSQL store share, written once: their compiled tables, and
/// the reads that are the same SQL on either. Each store says only how it reaches its database.
///
/// The seed of the one store engine (issue #46): what still differs between the stores beyond
/// reaching the database (search, the writer's batches, the schema) moves here as it is made
/// the same.
protocol StoreEngine: AnyObject {
    var catalog: Catalog { get }
    var options: CatalogStore.Options { get }
    var tables: [String: CatalogTable] { get }
    var state: Locked<StoreState> { get }
    var idempotency: IdempotencyStore { get }
    var keys: KeyStore { get }
    /// Each collection's rows, followed through the change log (`counts`).
    var rowCounts: RowCounts { get }

    /// What the store's signal of commits says now (`StoreState.stamp`): SQLite's commit counter,
    /// PostgreSQL's listener generation (nil while it is not connected: every call reads the state).
    var commitStamp: UInt64? { get }

    /// The statement that reads the newest sequence (one integer): each database keeps it its own way.
    static var latestSQL: String { get }

    /// Whether the state was read when the store opened (SQLite). Otherwise its first read, at the
    /// first call, starts the window of recent changes at the versions it reads (PostgreSQL).
    static var readsStateAtOpen: Bool { get }

    /// Whether a sectioned page's rows carry the items their sections are headed by
    /// (`CatalogPageQuery.joinSectionItems`), so that reading them needs no snapshot of its own.
    static var joinsSectionItems: Bool { get }

    /// Runs `body` on a connection for reads of one statement each: a statement is its own
    /// snapshot, with no transaction around it (on PostgreSQL, no BEGIN and COMMIT round trips).
    func readStatement<T>(_ body: (any RowSource) throws -> T) throws -> T

    /// Reads `query`'s page in order: `each` row, then `finish` with where the page ended, both
    /// with the page's `PageReading` (its source, for what they read of other items). With
    /// `snapshot`, every statement of them sees one snapshot; without, the page's rows are read
    /// as the store reads them fastest (on PostgreSQL: one statement, one round trip).
    /// `restart`: a search gave up a plan after visiting rows, and what `each` did is forgotten.
    func readPageRows<T>(
        _ query: CatalogQuery, table: CatalogTable, snapshot: Bool, restart: () -> Void,
        each: (PageReading, StatementRow, EntityID) throws -> Void, finish: (PageReading, PageEnd) throws -> T
    ) throws -> T

    /// Runs `body` in one snapshot with how this database narrows a list to a search's matches
    /// (given the folded text): what a change feed reads (`CatalogStore.readChanges`).
    func readFeed<T>(_ body: (any RowSource, (inout CatalogPageQuery, String) throws -> Void) throws -> T) throws -> T

    /// Narrows a plan to the rows whose folded title or subtitle contains `text`, checked in each
    /// row: whether one changed row is in a search's list, without searching the list.
    static func filterRows(_ plan: inout CatalogPageQuery, containing text: String)
}

extension StoreEngine {
    /// Each collection's table and renderer, by name; `ordered`: the tables key their search
    /// index by the title order where they can (`CatalogTable.ordered`, SQLite only).
    static func compile(_ catalog: Catalog, ordered: Bool) -> (tables: [String: CatalogTable], renderers: [String: ItemRenderer]) {
        var compiled: (tables: [String: CatalogTable], renderers: [String: ItemRenderer]) = ([:], [:])
        for collection in catalog.collections {
            compiled.tables[collection.name] = CatalogTable(collection, ordered: ordered)
            compiled.renderers[collection.name] = ItemRenderer(collection: collection, catalog: catalog)
        }
        return compiled
    }

    func table(_ name: String) throws(StoreError) -> CatalogTable {
        guard let table = tables[name] else { throw StoreError.invariant("no collection \(name)") }
        return table
    }

    /// One item of `collection` by id, with its version; nil when there is none.
    public func item(_ collection: String, id: EntityID) throws(StoreError) -> Versioned<Item>? {
        let table = try table(collection)
        return try StoreError.catching { try readStatement { source in try CatalogStore.fetchItem(source, table: table, id: id) } }
    }

    public var idempotencyRecords: any IdempotencyRecords { idempotency }
    public var keyRecords: any KeyRecords { keys }
}

extension StoreEngine {
    /// The collection's version: the sequence of its last committed change (0 when none), as of
    /// the newest commit to the database, whoever made it.
    public func version(of collection: String) throws(StoreError) -> Int64 {
        try current { $0.versions[collection] ?? 0 }
    }

    public func latestSequence() throws(StoreError) -> Int64 {
        try current { $0.latest }
    }

    public func unchanged(_ items: [ItemAddress], since sequence: Int64) throws(StoreError) -> Bool {
        try current { $0.recent.unchanged(items, since: sequence, latest: $0.latest) }
    }

    /// `read` of the state, read again first when anyone committed since it was.
    private func current<T>(_ read: (StoreState) -> T) throws(StoreError) -> T {
        try state.current(
            stamp: commitStamp,
            reload: { since in
                // One statement, one snapshot: the log's entries through the versions' `latest`, none later.
                try readStatement { source -> (StoreState, [ChangedItem]?) in
                    let tail = since > 0 || Self.readsStateAtOpen ? (after: since, limit: options.recentChanges) : nil
                    return try StoreState.read(source, catalog: catalog, latestSQL: Self.latestSQL, tail: tail)
                }
            }, read)
    }
}

extension StoreEngine {
    /// A page in keyset order (never OFFSET), with the items its references point to.
    public func page(_ query: CatalogQuery) throws(StoreError) -> CatalogPage {
        let table = try table(query.collection)
        var items: [Versioned<Item>] = []
        items.reserveCapacity(query.limit)
        var childCounts: [EntityID: Int] = [:]
        let tables = tables
        return try StoreError.catching {
            return try readPageRows(
                query, table: table, snapshot: !table.references.isEmpty && query.references?.isEmpty != true,
                restart: {
                    items.removeAll(keepingCapacity: true)
                    childCounts.removeAll()
                },
                each: { reading, row, id in
                    items.append(try CatalogColumns.decode(row, in: table, id: id))
                    if let column = reading.layout.childCount { childCounts[id] = Int(row.integer(column) ?? 0) }
                },
                finish: { reading, end in
                    CatalogPage(
                        items: items, nextAfter: end.nextAfter, firstAt: end.firstAt,
                        references: try CatalogStore.references(
                            reading.source, of: items.map(\.item), in: table, fields: query.references, tables: tables),
                        sections: end.sections, childCounts: childCounts)
                })
        }
    }

    /// A page visited row by row where the store holds it, for a list that shows nothing of
    /// other items but its sections' headers: each row of the page in order, then where it
    /// ended. A search may read a first plan's rows and then give it up for another: `restart`
    /// is called before the rows are visited again, and forgets what the visits wrote.
    public func visitPage(_ query: CatalogQuery, restart: () -> Void, visit: (PageRow) throws -> Void) throws(StoreError) -> PageEnd {
        let table = try table(query.collection)
        return try StoreError.catching {
            return try readPageRows(
                query, table: table, snapshot: Self.sectionsReadOtherItems(query, table) && !Self.joinsSectionItems, restart: restart,
                each: { reading, row, id in try visit(PageRow(row: row, table: table, id: id, reading: reading)) },
                finish: { _, end in end })
        }
    }

    /// Changes of `collection` after `sequence`, in commit order, at most `limit`: one entry
    /// per item, at its last change, with its state now (a create and a delete of one item
    /// read as one delete). Throws `.changesExpired` when `sequence` is older than the log.
    /// With a `list` (a query of this collection; its position and limit are ignored), each
    /// existing item also says where it now stands in that list, read in the same snapshot, and
    /// `counting` counts the list in it too.
    public func changes(
        _ collection: String, after sequence: Int64, limit: Int, in list: CatalogQuery?, counting: ListCount
    ) throws(StoreError) -> CatalogChangeBatch {
        let table = try table(collection)
        let tables = tables
        return try StoreError.catching {
            return try readFeed { db, restrict in
                var batch = try CatalogStore.readChanges(
                    db, table: table, after: sequence, limit: limit, in: list, tables: tables, restrict: restrict, filter: Self.filterRows)
                if let list, counting != .none {
                    var unpositioned = list
                    unpositioned.after = nil
                    var plan = try CatalogPageQuery(unpositioned, table: table)
                    if let text = CatalogPageQuery.folded(list.search) { try restrict(&plan, text) }
                    batch.counts = try countRows(db, plan: plan, list: unpositioned, mode: counting, sections: list.sections ? .all : .none)
                }
                return batch
            }
        }
    }

    /// Whether a visited page's rows read other items: its sections are headed by a referenced item.
    static func sectionsReadOtherItems(_ query: CatalogQuery, _ table: CatalogTable) -> Bool {
        guard query.sections, let field = table.collection.sections?.field, table.collection.fields.indices.contains(field) else { return false }
        if case .reference = table.collection.fields[field].type { return true }
        return false
    }
}
