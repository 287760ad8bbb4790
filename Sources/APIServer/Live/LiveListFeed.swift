import Domain
import HTTPServer
import Storage

/// One list's change feed as server-sent events: what a stream of that list is sent, read and
/// written once for every stream open on it (`LiveLists`).
///
/// Each read of the feed is one `changes` event whose data is what the feed answers for it (its
/// `changes`, a counted list's `total` and `sections`, and `referencesVersion`), and whose `id` is
/// the feed token after it: resuming after any event's id reads exactly the changes not yet sent. A read is one
/// event, not one per change, because its upserts are placed in the list as it is after all of
/// them (an upsert may follow a row the same read places later), as a feed page's are.
struct LiveListFeed: Sendable {
    /// The list and the language its rows are written in: streams with the same key are sent
    /// the same bytes.
    let key: String
    let store: any ItemStore
    let shape: CatalogShape
    let list: CatalogQuery
    let counting: ListCount
    let context: RenderContext
    let parentItem: Item?
    let signer: TokenSigner

    /// The most changes one read takes; a stream further behind reads again at once.
    static let batchLimit = 500

    /// The versions of what the list's rows show through references (the feed's
    /// `referencesVersion`): when they move, the rows must be read again, and no change of the
    /// list itself says so.
    func referencesVersion() throws(StoreError) -> String {
        try CatalogListController.referencesVersion(shape.collection, store: store)
    }

    /// The event of the changes after `sequence` (none when there are none, unless `announcing`
    /// a new `references` version: then an event with no changes says it), and where the next
    /// read starts.
    func events(after sequence: Int64, references: String, announcing: Bool) throws(StoreError) -> (bytes: [UInt8], resumeAfter: Int64, more: Bool) {
        let name = shape.collection.name
        let batch = try store.changes(name, after: sequence, limit: Self.batchLimit, in: list, counting: counting)
        let writer = ChangeWriter(shape: shape, context: context, references: batch.references, parentItem: parentItem)
        var json = JSONWriter(capacity: 1024)
        json.beginObject()
        json.key("changes")
        json.beginArray()
        var written = 0
        for change in batch.changes where try writer.write(change, into: &json) { written += 1 }
        // Nothing this list's clients had or get (items created outside it): no event; the
        // next one's id covers these changes.
        guard written > 0 || announcing else { return ([], batch.resumeAfter, batch.hasMore) }
        json.endArray()
        if let counts = batch.counts { CatalogListController.writeCounts(counts, sections: shape.parameters.sections, into: &json) }
        json.field("referencesVersion", references)
        json.endObject()
        var bytes: [UInt8] = []
        Self.append(event: "changes", id: ChangeToken.seal(collection: name, after: batch.resumeAfter, signer: signer), data: json.bytes, to: &bytes)
        return (bytes, batch.resumeAfter, batch.hasMore)
    }

    /// `id`, `event` and one `data` line: JSON as the writer makes it holds no line break.
    static func append(event: String, id: String?, data: [UInt8], to bytes: inout [UInt8]) {
        if let id { bytes += Array("id: \(id)\n".utf8) }
        bytes += Array("event: \(event)\ndata: ".utf8)
        bytes += data
        bytes += [10, 10]
    }
}
