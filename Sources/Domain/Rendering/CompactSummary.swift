/// What a table row shows in a compact size class, where only the first column is visible.
///
/// The seed's adaptive table puts the combined information (full name over e-mail) into the
/// first column when compact; the server precomputes it so clients need not know which
/// columns to combine. `subtitle` encodes as `null` when absent, keeping the shape constant.
public struct CompactSummary: Hashable, Sendable, Codable {
    public var title: String
    public var subtitle: String?

    public init(title: String, subtitle: String? = nil) {
        self.title = title
        self.subtitle = subtitle
    }

    private enum CodingKeys: String, CodingKey { case title, subtitle }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(subtitle, forKey: .subtitle)
    }
}
