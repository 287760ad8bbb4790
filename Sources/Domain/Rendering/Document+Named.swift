extension Document: Named {
    /// Characters of body text a document row previews (seed: `prefix(56)`).
    public static let previewLimit = 56

    public var name: String { title }

    /// The trimmed body cut to 56 characters plus "…", nil when blank.
    public var details: String? { truncatedPreview(body, limit: Self.previewLimit) }
}
