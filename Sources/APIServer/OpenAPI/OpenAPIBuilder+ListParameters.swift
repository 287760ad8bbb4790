import Domain

/// The query parameters of a list: page size, cursor and `around`, sort, search, view, grouping, and one
/// parameter per filter.
extension OpenAPIBuilder {
    /// More sort expressions than this are described by a pattern instead of listed.
    static let maximumSortEnumeration = 500

    func listParameters(_ collection: CollectionDefinition) -> [YAMLNode] {
        let limits = collection.limits
        let parameters: [YAMLNode] = [
            Self.parameter(
                "limit", "Rows per page, 1 to \(limits.maxLimit) (default \(limits.defaultLimit)).",
                schema: ["type": "integer", "minimum": 1, "maximum": .int(limits.maxLimit), "default": .int(limits.defaultLimit)]),
            Self.ref("Cursor", "parameters"),
            Self.parameter(
                "around",
                "A row's id: the page that holds that row, with half a page before it (a link to a row's place in its list). "
                    + "Not with `cursor`; 404 when the row is not in the list.",
                schema: ["type": "string", "pattern": .string(Self.idPattern(collection.kind))]),
            Self.parameter(
                "ids",
                "Comma-separated ids, each once, at most \(limits.maxLimit): those rows in that order (no empty state), and `missing` "
                    + "naming the ids without a row in this list. Only `view` may join it.",
                schema: ["type": "string", "minLength": 1]),
        ]
        return parameters + selectionParameters(collection) + [Self.ref("AcceptLanguage", "parameters"), Self.ref("IfNoneMatch", "parameters")]
    }

    /// What names one list of a collection apart from its position: its sort, search, view,
    /// sections and filters (a page's parameters, and a change feed's).
    func selectionParameters(_ collection: CollectionDefinition) -> [YAMLNode] {
        var parameters: [YAMLNode] = []
        if !collection.sorts.isEmpty { parameters.append(sortParameter(collection)) }
        if collection.isSearchable { parameters.append(Self.ref("Search", "parameters")) }
        let hasTable = collection.table != nil
        parameters.append(
            Self.parameter(
                "view", hasTable ? "`table` for columns and cells instead of rows." : "Only `rows` for this collection.",
                schema: ["type": "string", "enum": hasTable ? ["rows", "table"] : ["rows"]]))
        if let sections = collection.sections, collection.fields.indices.contains(sections.field) {
            parameters.append(
                Self.parameter(
                    "group", groupDescription(sections, collection.fields[sections.field]),
                    schema: ["type": "string", "enum": [.string(sections.name)]]))
        }
        parameters.append(
            Self.parameter(
                "count",
                "`exact`: the page's `total` (and each section's `count`) is counted, up to 10,000 rows, estimated past it; "
                    + "`estimated`: scaled from a sample of at most 1,000 rows of the collection (a smaller one is counted); `none`: "
                    + "no total. A list without filters or search is counted exactly at any size. Default "
                    + "`\(collection.defaultCount.rawValue)`.",
                schema: ["type": "string", "enum": .strings(ListCount.allCases.map(\.rawValue))]))
        for filter in collection.filters where collection.fields.indices.contains(filter.field) {
            parameters.append(filterParameter(filter, field: collection.fields[filter.field]))
        }
        return parameters
    }

    private func groupDescription(_ sections: SectionDefinition, _ field: FieldDefinition) -> String {
        let order =
            if let target = field.type.referencedCollection {
                "one per \(target) item, ordered by its title"
            } else {
                "one per value of \(field.label.english), in the order the values are declared"
            }
        return "`\(sections.name)` cuts the page into sections, \(order). Not with `view=table`."
    }

    private func sortParameter(_ collection: CollectionDefinition) -> YAMLNode {
        let names = collection.sorts.map(\.name)
        let defaultSort =
            collection.defaultSort.isEmpty
            ? "the id" : "`" + collection.defaultSort.map { ($0.descending ? "-" : "") + $0.field }.joined(separator: ",") + "`"
        let schema: YAMLNode
        if Self.sortExpressionCount(names.count) <= Self.maximumSortEnumeration {
            schema = ["type": "string", "enum": .strings(Self.sortExpressions(names))]
        } else {
            let one = "-?(" + names.map(Self.escapedForPattern).joined(separator: "|") + ")"
            schema = ["type": "string", "pattern": .string("^\(one)(,\(one)){0,\(names.count - 1)}$")]
        }
        return Self.parameter(
            "sort",
            "Comma-separated sort names, `-` for descending; each at most once (default \(defaultSort)). The id is always the last key.",
            schema: schema)
    }

    /// How many expressions `n` sort names make: for each length, its ordered choices of names
    /// times the directions. Stops counting past the enumeration limit (40 names would overflow).
    static func sortExpressionCount(_ n: Int) -> Int {
        var total = 0
        var arrangements = 1
        for length in 0..<n {
            arrangements *= (n - length) * 2
            total += arrangements
            if total > maximumSortEnumeration { return total }
        }
        return total
    }

    /// Every valid sort expression: each name at most once, in any order, either direction;
    /// shorter ones first, then in the order of the names, ascending before descending.
    static func sortExpressions(_ names: [String]) -> [String] {
        var expressions: [String] = []
        for length in stride(from: 1, through: names.count, by: 1) {
            for arrangement in arrangements(of: names.indices.map { $0 }, length: length) {
                for signs in 0..<(1 << length) {
                    let keys = arrangement.enumerated().map { position, index in
                        (signs >> (length - 1 - position)) & 1 == 1 ? "-" + names[index] : names[index]
                    }
                    expressions.append(keys.joined(separator: ","))
                }
            }
        }
        return expressions
    }

    /// The ordered choices of `length` distinct elements, in lexicographic order of positions.
    private static func arrangements(of elements: [Int], length: Int) -> [[Int]] {
        guard length > 0 else { return [[]] }
        return elements.flatMap { first in
            arrangements(of: elements.filter { $0 != first }, length: length - 1).map { [first] + $0 }
        }
    }
}
