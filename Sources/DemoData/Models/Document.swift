import Domain

/// A plain-text document of the demo's `documents`: a title and its body.
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
