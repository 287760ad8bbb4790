/// A plain-text document: a title and its body.
///
/// The seed models this as an `ObservableObject` class; the server has no observers, so it is a
/// value here. It keeps the seed's extension-based `Named` conformance (`Document+Named.swift`).
public struct Document: Identifiable, Hashable, Sendable, Codable {
    public let id: EntityID
    public var title: String
    public var body: String

    public init(id: EntityID, title: String, body: String) {
        self.id = id
        self.title = title
        self.body = body
    }
}
