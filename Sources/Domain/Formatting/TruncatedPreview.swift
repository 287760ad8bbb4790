/// A one-line preview of `text`: trimmed, nil when empty, cut to `limit` characters plus "…".
///
/// This is the seed's `details` computation — `trimmingCharacters(in: .whitespacesAndNewlines)`,
/// nil when empty, `prefix(limit)` plus an ellipsis (U+2026) when the trimmed text is longer.
/// Counting is by `Character`, so a cut never splits an emoji, a letter from its combining
/// marks, or a CJK character. The whitespace set (Unicode White_Space) equals Foundation's
/// `whitespacesAndNewlines`; only the preview's prefix is copied, so long bodies stay cheap.
/// A negative `limit` counts as 0.
public func truncatedPreview(_ text: String, limit: Int) -> String? {
    let scalars = text.unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
    else { return nil }
    let end = scalars.index(after: last)
    let trimmedScalars = scalars[first..<end]
    // Foundation trims scalars; when that splits a grapheme (a space carrying a combining mark),
    // copy so the remaining characters are formed exactly as in Foundation's trimmed string.
    let aligned = first.samePosition(in: text) != nil && end.samePosition(in: text) != nil
    let trimmed = aligned ? Substring(trimmedScalars) : Substring(String(trimmedScalars))
    guard let cut = trimmed.index(trimmed.startIndex, offsetBy: max(limit, 0), limitedBy: trimmed.endIndex),
        cut < trimmed.endIndex
    else { return String(trimmed) }
    return String(trimmed[..<cut]) + "\u{2026}"
}
