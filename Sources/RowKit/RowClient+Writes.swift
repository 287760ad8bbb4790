import Foundation

/// Writes through the links the server gave: create in a list, change or delete a detail.
/// Changes and deletes send the detail's ETag as `If-Match`, so a write never overwrites an
/// edit it has not seen: that answer is `RowKitError.conflict`.
extension RowClient {
    /// Creates an item by POST to a list link (a collection's `links.list`); returns its detail.
    public func create(in listLink: String, _ item: JSONValue) async throws(RowKitError) -> Detail {
        try await create(in: listLink, body: try Self.encode(item))
    }

    /// Creates an item from the app's own model.
    public func create<Item: Encodable>(in listLink: String, item: Item) async throws(RowKitError) -> Detail {
        try await create(in: listLink, body: try Self.encode(item))
    }

    /// Changes an item with a JSON merge patch (RFC 7396): members set replace, `null` removes.
    /// Unless `force`, only if it is still at the version `detail` was read at.
    public func update(_ detail: Detail, patch: JSONValue, force: Bool = false) async throws(RowKitError) -> Detail {
        var request = Request(method: "PATCH", link: detail.link, body: try Self.encode(patch))
        request.headers["Content-Type"] = "application/merge-patch+json"
        if !force, let etag = detail.etag { request.headers["If-Match"] = etag }
        return try Detail(link: detail.link, response: try await send(request))
    }

    /// Deletes an item; unless `force`, only if it is still at the version `detail` was read at.
    public func delete(_ detail: Detail, force: Bool = false) async throws(RowKitError) {
        var request = Request(method: "DELETE", link: detail.link)
        if !force, let etag = detail.etag { request.headers["If-Match"] = etag }
        _ = try await send(request)
    }

    private func create(in listLink: String, body: Data) async throws(RowKitError) -> Detail {
        var request = Request(method: "POST", link: listLink, body: body)
        request.headers["Content-Type"] = "application/json"
        let response = try await send(request)
        return try Detail(link: response.header("Location") ?? listLink, response: response)
    }

    static func encode<Value: Encodable>(_ value: Value) throws(RowKitError) -> Data {
        do {
            return try JSONEncoder().encode(value)
        } catch {
            throw .coding("\(Value.self): \(error)")
        }
    }
}
