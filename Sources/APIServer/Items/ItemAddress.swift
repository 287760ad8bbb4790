import Domain
import HTTPServer
import Storage

/// Resolves the `:collection` and `:id` segments of an item route, or answers 404.
///
/// Samples are not a top-level collection: they are addressed under their track
/// (`/v1/tracks/{id}/samples/{sampleID}`), so `/v1/samples/…` is unknown like any other name.
/// An id of another kind, or one that is not an id at all, is a 404 without reading the store.
enum ItemAddress {
    static func collection(_ request: Request) throws(HTTPError) -> StoredCollection {
        guard let name = request.parameter("collection"), let collection = StoredCollection(rawValue: name), collection != .samples else {
            throw .notFound("No collection of that name; GET /v1 lists them.")
        }
        return collection
    }

    static func id(_ raw: String?, of kind: EntityKind) throws(HTTPError) -> EntityID {
        guard let raw, let id = EntityID(parsing: raw, kind: kind) else {
            throw .notFound("No item has this id.")
        }
        return id
    }
}
