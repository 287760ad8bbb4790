import Domain

/// One row of a page where the store holds it, read in place while a list is written from it
/// (`CatalogStore.visitPage`): a row's plain texts go from the statement's buffer to the body
/// with no `Item`, no `String` and no render row in between (issue #16).
///
/// Valid only during the visit that received it: the bytes it lends belong to the statement,
/// which steps to the next row after the visit returns (https://sqlite.org/c3ref/column_blob.html).
public struct PageRow {
    let row: StatementRow
    let table: CatalogTable
    /// The row's id, parsed (and so checked) by the read.
    public let id: EntityID
    /// The connection the page is read on, for the items its rows point to (same snapshot).
    let reading: PageReading

    /// The id as stored: the canonical spelling (`EntityID` accepts only that one), so writing
    /// these bytes writes `id.rawValue` without making it.
    public var idBytes: UnsafeBufferPointer<UInt8> {
        row.withText(0) { $0 } ?? UnsafeBufferPointer(start: nil, count: 0)
    }

    /// The UTF-8 bytes of a stored slot that holds text, in place; nil when it holds anything
    /// else (null, a number). Not checked: `UTF8Validation.isWellFormed` before writing them
    /// as they are.
    public func text(slot: Int) -> UnsafeBufferPointer<UInt8>? {
        guard let column = column(ofSlot: slot) else { return nil }
        return row.withText(column) { $0 }
    }

    /// Where the row holds `slot`'s (first) value column; nil when the page does not select it.
    private func column(ofSlot slot: Int) -> Int? {
        let columns = reading.layout.slotColumns
        return columns.indices.contains(slot) ? columns[slot] : nil
    }

    /// A stored money slot's amount and its currency code's bytes, in place (no `String` for
    /// the code, no `FieldValue`): `.null` as ``value(slot:)`` reads `.null`. nil when the
    /// slot does not hold money.
    public func money(slot: Int) -> StoredMoney? {
        guard table.storedTypes.indices.contains(slot), case .money = table.storedTypes[slot] else { return nil }
        guard let column = column(ofSlot: slot), let minorUnits = row.integer(column), let currency = row.withText(column + 1, { $0 }) else {
            return .null
        }
        return .amount(minorUnits: minorUnits, currency: currency)
    }

    /// One stored slot's value, as the item would hold it.
    public func value(slot: Int) throws(StoreError) -> FieldValue {
        guard let column = column(ofSlot: slot) else { return .null }
        return try StoreError.catching { try CatalogColumns.value(row, slot: slot, column: column, in: table) }
    }

    /// An outline row's number of children, read with the page; nil for a collection that is no outline.
    public var childCount: Int? {
        reading.layout.childCount.map { Int(row.integer($0) ?? 0) }
    }

    /// The whole item, for what a row shows that is more than a stored value.
    public func item() throws(StoreError) -> Item {
        guard reading.layout.isWhole else { throw StoreError.invariant("a page that reads some of its slots has no whole items") }
        return try StoreError.catching { try CatalogColumns.decode(row, in: table, id: id).item }
    }
}

extension PageRow {
    /// The item of `collection` with `id` (one a reference of this row points to), read in the
    /// page's snapshot; nil when there is none.
    public func item(_ collection: String, id: EntityID) throws(StoreError) -> Item? {
        guard let table = reading.tables[collection] else { return nil }
        return try StoreError.catching {
            if let joined = reading.joined, joined.table.name == table.name {
                let item = row.shifted(by: joined.offset)
                if item.withText(0, { $0?.elementsEqual(id.rawValue.utf8) }) == true {
                    return try CatalogColumns.decode(item, in: table, id: id).item
                }
            }
            return try CatalogStore.fetchItem(reading.source, table: table, id: id)?.item
        }
    }
}

/// A money slot of a ``PageRow``; the currency's bytes belong to the statement, valid while
/// the row is.
public enum StoredMoney {
    case null
    case amount(minorUnits: Int64, currency: UnsafeBufferPointer<UInt8>)
}

/// What the rows of one page share: the connection it is read on and the store's tables. A
/// class, made once a page: each row then holds one reference rather than copies of both.
final class PageReading {
    let source: any RowSource
    let tables: [String: CatalogTable]
    /// Where each row holds the columns of its slots (`CatalogPageQuery.layout`).
    let layout: RowLayout
    /// Where each row holds the item its section reference points to (`CatalogPageQuery.joined`).
    let joined: (table: CatalogTable, offset: Int)?

    init(source: any RowSource, tables: [String: CatalogTable], layout: RowLayout, joined: (table: CatalogTable, offset: Int)? = nil) {
        self.source = source
        self.tables = tables
        self.layout = layout
        self.joined = joined
    }
}

/// Where a visited page ended: how many rows it had, and the position after its last one
/// (nil on the last page).
public struct PageEnd: Sendable, Equatable {
    public var count: Int
    public var nextAfter: [SortValue]?
    /// The position of its first row (nil for no rows): where the page before it ends.
    public var firstAt: [SortValue]? = nil
    /// The sections its rows are in, by keyset prefix (the section keys), in order; only when
    /// the query collects them (`CatalogQuery.collectsSections`).
    public var sections: [[SortValue]] = []
}
