/// One answer of a list link: rows, sections or a table, with the link of the next page.
///
/// Which of the three a link answers is the server's choice (the link names the view); the
/// decoder tells them apart by their keys.
public struct Page: Decodable, Hashable, Sendable {
    public enum Content: Hashable, Sendable {
        case rows([Row])
        case sections([Section])
        case table(Table)
    }

    public struct Links: Codable, Hashable, Sendable {
        /// This page's own link (`self` in the JSON).
        public var current: String
        /// The next page's link; nil on the last page.
        public var next: String?
        /// The page before this one (`prev` in the JSON); nil on the list's first page, and from
        /// a server that does not page back.
        public var previous: String?
        /// The list's first page; nil on it.
        public var first: String?
        /// This list's change feed (its upserts say where each row stands in this list); nil
        /// for a list without one.
        public var changes: String?
        /// The same changes pushed as server-sent events (its feed, asked for
        /// `text/event-stream`); nil from a server that does not stream.
        public var stream: String?
        /// The list's letter index (`RowClient.letters`); nil for a list not in text order.
        public var index: String?

        private enum CodingKeys: String, CodingKey {
            case current = "self"
            case previous = "prev"
            case next, first, changes, stream, index
        }
    }

    public var content: Content
    /// The opaque cursor of the next page; nil on the last one. Follow `links.next` rather than
    /// putting it into a URL.
    public var next: String?
    public var limit: Int
    /// What to show when the list has no rows at all; nil otherwise.
    public var empty: EmptyState?
    public var links: Links
    /// How many rows the whole list holds, when the list is counted (`count=exact|estimated`).
    public var total: Total?

    /// How many rows the page holds, whatever its view.
    public var rowCount: Int { content.rowCount }

    private enum CodingKeys: String, CodingKey {
        case rows, sections, columns, sort, next, limit, empty, links, total
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.columns) {
            content = .table(
                Table(
                    columns: try container.decode([TableColumn].self, forKey: .columns),
                    sort: try container.decode([TableSort].self, forKey: .sort),
                    rows: try container.decode([TableRow].self, forKey: .rows)))
        } else if container.contains(.sections) {
            content = .sections(try container.decode([Section].self, forKey: .sections))
        } else {
            content = .rows(try container.decode([Row].self, forKey: .rows))
        }
        next = try container.decodeIfPresent(String.self, forKey: .next)
        limit = try container.decode(Int.self, forKey: .limit)
        empty = try container.decodeIfPresent(EmptyState.self, forKey: .empty)
        links = try container.decode(Links.self, forKey: .links)
        total = try container.decodeIfPresent(Total.self, forKey: .total)
    }
}
