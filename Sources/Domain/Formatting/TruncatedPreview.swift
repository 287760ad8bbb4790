import Foundation

/// A one-line preview of `text`: trimmed, nil when empty, cut to `limit` characters plus "…".
///
/// This is the seed's `details` computation — `trimmingCharacters(in: .whitespacesAndNewlines)`,
/// nil when empty, `prefix(limit)` plus an ellipsis (U+2026) when the trimmed text is longer.
/// Counting is by `Character`, so a cut never splits an emoji, a letter from its combining
/// marks, or a CJK character. Trimming uses Foundation's own `whitespacesAndNewlines` (which,
/// unlike Unicode's White_Space, includes U+200B ZERO WIDTH SPACE) but scans only the ends,
/// and only the preview's prefix is copied, so long bodies stay cheap. A negative `limit` counts as 0.
public func truncatedPreview(_ text: String, limit: Int) -> String? {
    let scalars = text.unicodeScalars
    let whitespace = CharacterSet.whitespacesAndNewlines
    guard let first = scalars.firstIndex(where: { !whitespace.contains($0) }),
        let last = scalars.lastIndex(where: { !whitespace.contains($0) })
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
