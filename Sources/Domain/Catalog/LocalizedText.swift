/// A text in every supported locale: a collection's title, a column's, an empty state's.
///
/// A definition gives a text once (the same in every locale) or per language or locale (`en`,
/// `de`, `en-GB`). Each locale takes its exact entry, else its language's, else the fallback
/// (the English entry when there is one, else the first given). Lookup is an array index, so
/// rendering never hashes a locale.
public struct LocalizedText: Sendable, Hashable {
    /// One text per locale, at `RenderLocale.ordinal`.
    private let texts: [String]

    /// The same text in every locale.
    public init(_ text: String) {
        texts = Array(repeating: text, count: RenderLocale.allCases.count)
    }

    /// Texts by language (`de`) or locale (`de-DE`) tag, as a definition gives them; nil when
    /// `entries` is empty. Tags are matched case-insensitively; unknown ones are the caller's to refuse.
    public init?(entries: [(tag: String, text: String)]) {
        guard let first = entries.first else { return nil }
        let byTag = Dictionary(entries.map { ($0.tag.lowercased(), $0.text) }, uniquingKeysWith: { first, _ in first })
        let fallback = byTag["en"] ?? byTag["en-us"] ?? first.text
        texts = RenderLocale.allCases.map { locale in
            byTag[locale.rawValue.lowercased()] ?? byTag[locale.language] ?? fallback
        }
    }

    public subscript(locale: RenderLocale) -> String { texts[locale.ordinal] }

    /// The en-US text: what the OpenAPI document and error messages use.
    public var english: String { texts[RenderLocale.enUS.ordinal] }

    /// Whether `tag` names a language or locale a text may be given for (`en`, `en-GB`, `ja`…).
    public static func isKnownTag(_ tag: String) -> Bool {
        let lowered = tag.lowercased()
        return RenderLocale.allCases.contains { $0.rawValue.lowercased() == lowered || $0.language == lowered }
    }
}
