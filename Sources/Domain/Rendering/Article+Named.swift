extension Article: Named {
    /// Characters of Markdown an article row previews (seed: `prefix(48)`).
    public static let previewLimit = 48

    public var name: String { headline }

    /// The trimmed Markdown cut to 48 characters plus "…", nil when blank; the source is shown
    /// as written, exactly as the seed does.
    public var details: String? { truncatedPreview(markdown, limit: Self.previewLimit) }
}
