import Domain

/// A written article of the demo's `articles`: a headline and its Markdown source.
public struct Article: Identifiable, Hashable, Sendable, Codable {
    public let id: EntityID
    public var headline: String
    public var markdown: String

    public init(id: EntityID, headline: String, markdown: String) {
        self.id = id
        self.headline = headline
        self.markdown = markdown
    }
}
