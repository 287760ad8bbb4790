import Foundation

extension RowList {
    /// The same list narrowed to rows whose text contains `text` (case- and accent-insensitive),
    /// or the whole list again for blank text. The search text is the one parameter a client adds
    /// to a server's link (`q`, as the explorer does); every other parameter stays as the server
    /// wrote it.
    public nonisolated func searching(_ text: String) -> RowList {
        RowList(client: client, link: Self.link(link, searching: text))
    }

    /// `link` with its `q` parameter replaced by `text`, or removed when `text` is blank.
    public static func link(_ link: String, searching text: String) -> String {
        let parts = link.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var parameters = parts.count > 1 ? parts[1].split(separator: "&").filter { !$0.hasPrefix("q=") && $0 != "q" }.map(String.init) : []
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty {
            var allowed = CharacterSet.urlQueryAllowed
            allowed.remove(charactersIn: "&+=#?/")
            parameters.append("q=" + (trimmed.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""))
        }
        return parameters.isEmpty ? String(parts[0]) : String(parts[0]) + "?" + parameters.joined(separator: "&")
    }
}

extension TableColumn {
    /// The link of the table sorted by this column in `order`; nil when it cannot be sorted.
    public func sortLink(_ order: TableSort.Order) -> String? {
        order == .ascending ? links?.ascending : links?.descending
    }
}
