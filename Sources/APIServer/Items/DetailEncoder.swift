import Domain
import HTTPServer
import Storage

/// The detail document of one item: its fields in camelCase, values formatted for the
/// request's locale, and the links a client follows (it never builds a URL).
///
/// Key sets are constant per collection; an absent value is `null`. Two details show another
/// item: a person's shows its department's name, a sample's shows its track's channel names.
/// Their ETag must change when that other item does, so the *representation version* is the
/// larger of the two versions; versions are positions in one store-wide change log, so the
/// larger one moves whenever either item is written. `If-Match` compares against it too.
enum DetailEncoder {
    /// The other items a detail shows, read with the item.
    struct Related: Sendable {
        var department: Versioned<Department>?
        var track: Versioned<Track>?

        static let none = Related()
    }

    /// Reads what `item`'s detail shows of other items (one index seek, or none).
    static func related(for item: StoredItem, store: any ItemStore) throws(StoreError) -> Related {
        var related = Related()
        switch item {
        case .person(let person):
            if let found = try store.item(.departments, id: person.departmentID), case .department(let department) = found.item {
                related.department = Versioned(item: department, version: found.version)
            }
        case .sample(let sample):
            if let found = try store.item(.tracks, id: sample.trackID), case .track(let track) = found.item {
                related.track = Versioned(item: track, version: found.version)
            }
        default:
            break
        }
        return related
    }

    /// The version the detail's ETag names (see the type's comment).
    static func version(of item: Versioned<StoredItem>, related: Related) -> Int64 {
        max(item.version, related.department?.version ?? 0, related.track?.version ?? 0)
    }

    /// The detail as a complete JSON body, reading related items from `store`.
    static func body(for item: Versioned<StoredItem>, store: any ItemStore, context: RenderContext) throws(StoreError) -> [UInt8] {
        body(for: item.item, related: try related(for: item.item, store: store), context: context)
    }

    static func body(for item: StoredItem, related: Related, context: RenderContext) -> [UInt8] {
        var json = JSONWriter(capacity: 512)
        write(item, related: related, context: context, into: &json)
        return json.bytes
    }

    /// Writes the detail object as the next value of `json` (to embed it, e.g. in a change feed).
    static func write(_ item: StoredItem, related: Related, context: RenderContext, into json: inout JSONWriter) {
        json.beginObject()
        switch item {
        case .product(let product): writeProduct(product, context: context, into: &json)
        case .department(let department): writeDepartment(department, into: &json)
        case .person(let person): writePerson(person, department: related.department?.item, into: &json)
        case .article(let article):
            json.field("id", article.id.rawValue)
            json.field("headline", article.headline)
            json.field("markdown", article.markdown)
            json.field("preview", article.details)
            writeLinks(.articles, article.id, into: &json)
        case .document(let document):
            json.field("id", document.id.rawValue)
            json.field("title", document.title)
            json.field("body", document.body)
            json.field("preview", document.details)
            writeLinks(.documents, document.id, into: &json)
        case .track(let track): writeTrack(track, into: &json)
        case .sample(let sample): writeSample(sample, track: related.track?.item, context: context, into: &json)
        }
        json.endObject()
    }

    /// `"links":{"self","collection"}` plus `extra` links, closing the object the caller opened.
    static func writeLinks(
        _ collection: StoredCollection, _ id: EntityID, parent: EntityID? = nil, extra: [(String, String)] = [], into json: inout JSONWriter
    ) {
        json.key("links")
        json.beginObject()
        json.field("self", ListLinks.detail(collection, id, parent: parent))
        json.field("collection", ListLinks.list(collection, parent: parent))
        for (name, link) in extra { json.field(name, link) }
        json.endObject()
    }
}
