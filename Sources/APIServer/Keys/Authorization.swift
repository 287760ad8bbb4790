import HTTPServer

/// Who may read and write a collection: every write needs a key with a write scope for it;
/// reads need a key with a read scope only where the definition says `read: key`.
func authorizeRead(_ request: Request, _ collections: ServedCollection...) throws(HTTPError) {
    for collection in collections where collection.definition.readsNeedKey {
        try request.require(.read, collection.name)
    }
}

/// A write to `collection` (under an item of `owner`, whose own reads may need a key).
func authorizeWrite(_ request: Request, _ collection: ServedCollection, under owner: ServedCollection? = nil) throws(HTTPError) {
    try request.require(.write, collection.name)
    if let owner { try authorizeRead(request, owner) }
}
