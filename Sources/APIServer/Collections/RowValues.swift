import Domain
import Storage

/// What the row writer reads of a row: a store's row in place (`PageRow`), or an item in memory
/// (a page read whole with the items its references point to, a change of the feed). One writer
/// over both writes every list feature once, whichever way the rows were read.
protocol RowValues {
    /// Calls `body` with the id's canonical spelling (`EntityID` accepts no other): nothing to escape.
    func withID<Failure: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void) throws(Failure)
    /// Calls `body` with the UTF-8 bytes of a slot that holds text, nil when it holds anything
    /// else. Not checked: `UTF8Validation.isWellFormed` before writing them as they are.
    func withText<Result>(slot: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result
    /// A money slot's amount with its currency's bytes in place; nil when the row does not lend
    /// them (`value(slot:)` then has the money).
    func money(slot: Int) -> StoredMoney?
    /// One stored slot's value, as the item holds it.
    func value(slot: Int) throws(StoreError) -> FieldValue
    /// The whole item, for what a row shows that is more than a stored value.
    func item() throws(StoreError) -> Item
    /// The item of `collection` with `id`, when the row can read it; nil otherwise.
    func item(_ collection: String, id: EntityID) throws(StoreError) -> Item?
    /// An outline row's number of children; nil when the row was read without it.
    var childCount: Int? { get }
}

extension PageRow: RowValues {
    func withID<Failure: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void) throws(Failure) {
        try body(idBytes)
    }

    func withText<Result>(slot: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        body(text(slot: slot))
    }
}

/// An item read whole: its references are among the writer's `ReferencedItems`, read with the
/// page, so it reads no other item itself.
extension Item: RowValues {
    func withID<Failure: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void) throws(Failure) {
        var raw = id.rawValue
        var failure: Failure?
        raw.withUTF8 { bytes in
            do throws(Failure) { try body(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    func withText<Result>(slot: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        guard case .text(var text) = self[slot: slot] else { return body(nil) }
        return text.withUTF8 { body($0) }
    }

    func money(slot: Int) -> StoredMoney? { nil }

    func value(slot: Int) -> FieldValue { self[slot: slot] }

    func item() -> Item { self }

    func item(_ collection: String, id: EntityID) -> Item? { nil }

    var childCount: Int? { nil }
}

/// An outline's item read whole, with its number of children read beside it (a page's
/// `childCounts`, a change's `childCount`).
struct CountedItem: RowValues {
    let whole: Item
    let childCount: Int?

    init(item: Item, childCount: Int?) {
        whole = item
        self.childCount = childCount
    }

    func withID<Failure: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void) throws(Failure) { try whole.withID(body) }

    func withText<Result>(slot: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result { whole.withText(slot: slot, body) }

    func money(slot: Int) -> StoredMoney? { nil }

    func value(slot: Int) -> FieldValue { whole[slot: slot] }

    func item() -> Item { whole }

    func item(_ collection: String, id: EntityID) -> Item? { nil }
}
