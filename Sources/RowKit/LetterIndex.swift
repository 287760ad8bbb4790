/// The letter index of a list in text order (`Page.Links.index`): the strip beside a long list.
public struct LetterIndex: Decodable, Hashable, Sendable {
    public struct Letter: Decodable, Hashable, Sendable {
        /// The first letter as a reader sees it (folded: "Ärger" is under "A").
        public var letter: String
        /// Its rows in the list; past the server's bound, at least that many.
        public var count: Total
        /// The list, opened at the letter's first row: load it as any list link.
        public var link: String
    }

    public struct Links: Decodable, Hashable, Sendable {
        /// This index's own link (`self` in the JSON).
        public var current: String
        /// The list it indexes, from its first page.
        public var list: String

        private enum CodingKeys: String, CodingKey {
            case current = "self"
            case list
        }
    }

    public var letters: [Letter]
    public var links: Links
}
