import Domain

/// What the API asks of a store of items, whichever database holds them: SQLite
/// (`CatalogStore`, the embedded default) or PostgreSQL (`PostgresStore`, shared by several
/// instances). The same definition, the same answers: the API's bytes do not depend on which.
public protocol ItemStore: AnyObject, Sendable {
    /// The collections the store holds.
    var catalog: Catalog { get }

    /// One item by id, with its version; nil when there is none.
    func item(_ collection: String, id: EntityID) throws(StoreError) -> Versioned<Item>?

    /// The collection's version: the sequence of its last committed change, by any writer.
    func version(of collection: String) throws(StoreError) -> Int64

    /// The newest sequence in the change log (a "from now" token).
    func latestSequence() throws(StoreError) -> Int64

    /// Whether none of `items` changed after `sequence`, by any writer, as far as the store
    /// knows without reading them: an answer made from them at `sequence` is still exact. False
    /// when one did, or when the store cannot tell (`RecentChanges`).
    func unchanged(_ items: [ItemAddress], since sequence: Int64) throws(StoreError) -> Bool

    /// A page of items, with the items their references point to.
    func page(_ query: CatalogQuery) throws(StoreError) -> CatalogPage

    /// A page's rows where the store holds them, one `visit` each; `restart` when a search
    /// gives up a plan after visiting rows (the caller drops what it wrote).
    func visitPage(_ query: CatalogQuery, restart: () -> Void, visit: (PageRow) throws -> Void) throws(StoreError) -> PageEnd

    /// Where the page before the row at `position` starts in the list `query` describes (no
    /// position: the list's first page, holding the rows before the position only); the page is
    /// then read forwards from there. `rows`: how many rows that page holds (default: the query's limit).
    func pageStart(before position: [SortValue], in query: CatalogQuery, rows: Int?) throws(StoreError) -> PageStart

    /// The position of the row `id` in the list `query` describes; nil when it is not in it.
    func position(of id: EntityID, in query: CatalogQuery) throws(StoreError) -> [SortValue]?

    /// How many rows the list `query` describes holds, and its sections' (`sections`), as
    /// `mode` counts them: exact up to its bound, else estimated. Nil for `.none`. `proof`:
    /// what the page these counts go with showed.
    func counts(_ query: CatalogQuery, mode: ListCount, sections: SectionsCounted, proof: PageProof?) throws(StoreError) -> ListCounts?

    /// The letter index of the list `query` describes when its first order key is text: each
    /// first letter with its rows (up to `bound`) and where the list opens at it; at most `limit`.
    func letters(_ query: CatalogQuery, bound: Int, limit: Int) throws(StoreError) -> [ListLetter]

    /// An outline node's ancestors, root first; none for a root or a collection that is no outline.
    func ancestors(_ collection: String, of id: EntityID) throws(StoreError) -> [Versioned<Item>]

    /// Changes of `collection` after `sequence`, in commit order, at most `limit`, placed in
    /// `list` when given; `.changesExpired` when `sequence` is older than the log. `counting`:
    /// the list's counts as of the same snapshot (`CatalogChangeBatch.counts`; `counts(…)`, with
    /// every section of a list within the bound).
    func changes(
        _ collection: String, after sequence: Int64, limit: Int, in list: CatalogQuery?, counting: ListCount
    ) throws(StoreError) -> CatalogChangeBatch

    /// Queues `write` for the store's group-committing writer; returns once the commit that
    /// holds it is durable (the item written; nil for a delete). `insert`, `update` and `delete`
    /// below are the API of it.
    func submit(_ write: StoreWrite) async throws(StoreError) -> WrittenItems

    /// Queues `writes` together, in order, each standing alone (its own result, a failure taking
    /// back only itself); they share a commit where the writer's batch has room for them all.
    func submit(all writes: [StoreWrite]) async -> [Result<WrittenItems, StoreError>]

    /// Throws when the database cannot answer now.
    func checkHealth() throws(StoreError)

    /// The `Idempotency-Key`s of writes, kept where the writes are.
    var idempotencyRecords: any IdempotencyRecords { get }

    /// The API keys, kept where the items are.
    var keyRecords: any KeyRecords { get }
}

extension ItemStore {
    /// Inserts a new item (its id already assigned); returns it with its version. `author`:
    /// the API key's id its change-log entry names (nil: a command's or a test's); `idempotency`:
    /// the key the write runs under, marked applied in the same transaction (`IdempotencyStore`).
    public func insert(
        _ item: Item, into collection: String, by author: String? = nil, idempotency: IdempotencyMark? = nil
    ) async throws(StoreError) -> Versioned<Item> {
        let write = StoreWrite(write: .insert(item, collection: collection), author: author, idempotency: idempotency)
        guard let written = try await submit(write).first ?? nil else { throw StoreError.invariant("insert returned no item") }
        return written
    }

    /// Replaces an existing item; with `ifVersion`, only when its version is still that one.
    public func update(
        _ item: Item, in collection: String, ifVersion: Int64?, by author: String? = nil, idempotency: IdempotencyMark? = nil
    ) async throws(StoreError) -> Versioned<Item> {
        let write = StoreWrite(write: .update(item, collection: collection, ifVersion: ifVersion), author: author, idempotency: idempotency)
        guard let written = try await submit(write).first ?? nil else { throw StoreError.invariant("update returned no item") }
        return written
    }

    /// Deletes an item (and the items whose reference to it cascades); with `ifVersion`, only
    /// when its version is still that one.
    public func delete(
        _ id: EntityID, from collection: String, ifVersion: Int64?, by author: String? = nil, idempotency: IdempotencyMark? = nil
    ) async throws(StoreError) {
        _ = try await submit(StoreWrite(write: .delete(id, collection: collection, ifVersion: ifVersion), author: author, idempotency: idempotency))
    }

    /// Applies `operations` to `collection` in order, in one transaction, all or none: the first
    /// that fails (a stale `ifVersion`, a missing item, a reference to nothing, an item still
    /// referenced) takes back the others and throws `.inGroup` naming it. Each operation's
    /// change-log entry, version and search entry are those it would have alone. `batch`: what
    /// the idempotency key's record names (`StoreWrite.batch`).
    public func applyTogether(
        _ operations: [ItemOperation], in collection: String, by author: String? = nil, idempotency: IdempotencyMark? = nil,
        batch: String? = nil
    ) async throws(StoreError) -> WrittenItems {
        let group = CatalogWrite.group(operations.map { $0.write(in: collection) })
        return try await submit(StoreWrite(write: group, author: author, idempotency: idempotency, batch: batch))
    }

    /// Applies each of `operations` on its own, in order (a failure takes back only itself), in
    /// one commit where they fit: each one's result, in order.
    public func applyEach(
        _ operations: [ItemOperation], in collection: String, by author: String? = nil, idempotency: IdempotencyMark? = nil,
        batch: String? = nil
    ) async -> [Result<Versioned<Item>?, StoreError>] {
        let writes = operations.map { StoreWrite(write: $0.write(in: collection), author: author, idempotency: idempotency, batch: batch) }
        return await submit(all: writes).map { result in result.map { $0.first ?? nil } }
    }

    /// The collection's own feed, placed in no list.
    public func changes(_ collection: String, after sequence: Int64, limit: Int) throws(StoreError) -> CatalogChangeBatch {
        try changes(collection, after: sequence, limit: limit, in: nil, counting: .none)
    }

    /// Changes placed in `list`, without its counts.
    public func changes(_ collection: String, after sequence: Int64, limit: Int, in list: CatalogQuery?) throws(StoreError) -> CatalogChangeBatch {
        try changes(collection, after: sequence, limit: limit, in: list, counting: .none)
    }
}

/// One insert, update or delete of a batch (`ItemStore.applyTogether`, `applyEach`).
public enum ItemOperation: Sendable {
    /// A new item, its id already assigned.
    case insert(Item)
    /// With `ifVersion`, only while the item's version is still that one.
    case update(Item, ifVersion: Int64?)
    /// Cascades as a single delete does.
    case delete(EntityID, ifVersion: Int64?)

    func write(in collection: String) -> CatalogWrite {
        switch self {
        case .insert(let item): .insert(item, collection: collection)
        case .update(let item, let ifVersion): .update(item, collection: collection, ifVersion: ifVersion)
        case .delete(let id, let ifVersion): .delete(id, collection: collection, ifVersion: ifVersion)
        }
    }
}

extension CatalogStore: ItemStore {}
