import Domain

/// A department of the staff directory; people belong to one, and it names their section.
public struct Department: Identifiable, Hashable, Sendable, Codable {
    public let id: EntityID
    public var name: String

    public init(id: EntityID, name: String) {
        self.id = id
        self.name = name
    }
}
