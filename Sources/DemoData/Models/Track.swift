import Domain

/// An audio track whose channels are only known at runtime (2 for stereo, 8 for 7.1…).
///
/// The order of ``channels`` is the order of the level columns and of every sample's levels.
public struct Track: Identifiable, Hashable, Sendable, Codable {
    public let id: EntityID
    public var title: String
    public var channels: [AudioChannel]

    public init(id: EntityID, title: String, channels: [AudioChannel]) {
        self.id = id
        self.title = title
        self.channels = channels
    }
}
