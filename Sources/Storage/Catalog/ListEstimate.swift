import Domain

/// How many rows a list holds, estimated without reading them: the collection's rows (exact,
/// `RowCounts`) times the share each condition keeps, as a planner guesses it from what the
/// definition says of a field. An enum keeps one case in so many, a boolean one in two, a
/// reference one in as many items as its collection holds; other equalities one in ten, a
/// bound one in three, a search one in ten.
///
/// The same arithmetic on either store, from the same counts: SQLite and PostgreSQL answer
/// the same estimate for the same data, as they answer the same bytes.
enum ListEstimate {
    static let equalityShare = 0.1
    static let boundShare = 1.0 / 3.0
    static let searchShare = 0.1

    /// The rows `query` keeps of `rows`; `sectionID`: only those of that section. `rowsOf` answers
    /// another collection's rows (a reference's target, a child list's parent).
    static func rows(
        _ query: CatalogQuery, sectionID: String? = nil, in collection: CollectionDefinition, rows: Int64, rowsOf: (String) throws -> Int64
    ) rethrows -> Int64 {
        var share = 1.0
        if query.parent != nil, let parent = collection.parent {
            share /= Double(max(1, try rowsOf(parent.collection)))
        }
        for condition in query.conditions where collection.fields.indices.contains(condition.field) {
            let type = collection.fields[condition.field].type
            switch condition.operation {
            case .equals, .oneOf: share *= min(1, Double(condition.values.count) * (try equalShare(type, rowsOf)))
            case .atLeast, .atMost: share *= boundShare
            }
        }
        if CatalogPageQuery.folded(query.search) != nil { share *= searchShare }
        if let ids = query.ids { share = min(share, Double(ids.count) / Double(max(rows, 1))) }
        if sectionID != nil, let field = collection.sections?.field, collection.fields.indices.contains(field) {
            share *= try equalShare(collection.fields[field].type, rowsOf)
        }
        return Int64((Double(rows) * share).rounded())
    }

    /// The share of rows one value of a field of `type` holds.
    private static func equalShare(_ type: FieldType, _ rowsOf: (String) throws -> Int64) rethrows -> Double {
        switch type {
        case .enumeration(let cases): 1 / Double(max(1, cases.count))
        case .boolean: 0.5
        case .reference(let target): 1 / Double(max(1, try rowsOf(target)))
        default: equalityShare
        }
    }
}
