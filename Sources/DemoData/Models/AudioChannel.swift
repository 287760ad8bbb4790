import Domain

/// One channel of an audio track, e.g. `Left`; each becomes a column of the samples table.
public struct AudioChannel: Identifiable, Hashable, Sendable, Codable {
    public let id: EntityID
    public var name: String

    public init(id: EntityID, name: String) {
        self.id = id
        self.name = name
    }
}
