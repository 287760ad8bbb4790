import Domain

/// The ways on from one page: the cursor of the next page, and the links a client follows to
/// the next page, the page before and the first page (`prev` and `first` are null on the list's
/// first page).
struct PageLinks {
    /// The body's `next`: the cursor of the page after this one.
    var next: String?
    var nextLink: String?
    var prevLink: String?
    var firstLink: String?

    /// The `Link` header's relations (RFC 8288), nil when there is none.
    var header: String? {
        let relations = [(nextLink, "next"), (prevLink, "prev"), (firstLink, "first")].compactMap { link, relation in
            link.map { "<\($0)>; rel=\"\(relation)\"" }
        }
        return relations.isEmpty ? nil : relations.joined(separator: ", ")
    }
}
