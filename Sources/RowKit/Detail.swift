import Foundation

/// An item's detail as the server answered it: the JSON, its ETag (for `If-Match` on writes)
/// and the link it was read from.
public struct Detail: Hashable, Sendable {
    /// The item's own link (`links.self`), else the link it was read from.
    public var link: String
    /// The version read; writes send it as `If-Match`.
    public var etag: String?
    public var json: JSONValue
    /// The body as it came, for `decode(_:)`.
    public var body: Data

    /// A detail that came inside another answer (a batch's result), with the tag its route sends.
    init(link: String, etag: String?, json: JSONValue, body: Data) {
        self.json = json
        self.link = json["links"]?["self"]?.string ?? link
        self.etag = etag
        self.body = body
    }

    init(link: String, response: RowClient.Response) throws(RowKitError) {
        json = try response.decode(JSONValue.self)
        self.link = json["links"]?["self"]?.string ?? link
        etag = response.header("ETag")
        body = response.body
    }

    /// The item's id.
    public var id: String? { json["id"]?.string }

    /// The detail as the app's own model of the collection.
    public func decode<Value: Decodable>(_ type: Value.Type) throws(RowKitError) -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: body)
        } catch {
            throw .coding("\(Value.self): \(error)")
        }
    }
}
