/// A written article: a headline and its Markdown source.
///
/// A value model, as in the seed; it is a `NamedValue` through the extension in
/// `Article+Named.swift`, so lists show headline and a preview without a second list model.
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
