import Domain
import GRDB
import Testing

@testable import Storage

/// Page statements' texts are kept by shape (`SeekTexts`): what `seekStatements` returns from
/// the memo must be what making them whole returns, texts and arguments, for every shape.
@Suite struct SeekTextsTests {
    static let products = StoredCollection.products.definition
    static let price = products.fieldIndex(named: "price") ?? -1

    static let queries: [(name: String, query: CatalogQuery, keys: [Int64]?, selecting: String?)] = [
        ("page 1", CatalogQuery(collection: products), nil, nil),
        ("by name, from a position", CatalogQuery(collection: products, after: [.text("lamp"), .text("prd_0000000000000001")]), nil, nil),
        (
            "by price descending, from a position",
            CatalogQuery(
                collection: products, sort: [SortKey("price", descending: true)], after: [.text("USD"), .integer(500), .text("prd_0000000000000002")]),
            nil, nil
        ),
        (
            "filtered, from a position",
            CatalogQuery(
                collection: products,
                conditions: [FieldCondition(field: price, operation: .atLeast, values: [.money(Money(minorUnits: 100, currency: "USD"))])],
                after: [.text("desk"), .text("prd_0000000000000003")]),
            nil, nil
        ),
        ("keys of the order", CatalogQuery(collection: products, after: [.text("a"), .text("prd_0000000000000004")]), nil, "t.pk"),
        ("read by key", CatalogQuery(collection: products), [3, 1, 2], nil),
    ]

    static func pairs(_ statements: [(sql: String, arguments: [DatabaseValue])]) -> [String] {
        statements.map { "\($0.sql) | \($0.arguments)" }
    }

    @Test(arguments: queries.indices)
    func keptTextsGiveTheStatementsMadeWhole(case index: Int) throws {
        let (_, query, keys, selecting) = Self.queries[index]
        let table = CatalogTable(Self.products)
        var plan = try CatalogPageQuery(query, table: table)
        if let keys { plan.addKeys(keys) }
        let made = Self.pairs(plan.makeSeekStatements(selecting: selecting))
        #expect(Self.pairs(plan.seekStatements(selecting: selecting)) == made)
        #expect(table.seekTexts.count == 1)
        #expect(Self.pairs(plan.seekStatements(selecting: selecting)) == made, "from the memo")
        #expect(table.seekTexts.count == 1)
    }

    /// PostgreSQL's one statement a page (`seekStatement`): an order of one direction seeks by one
    /// row comparison, after the query's own conditions; an order of two takes the union of the
    /// prefix statements. (query index, what the WHERE holds, whether a union, the arguments)
    static let oneStatementCases: [(query: Int, seek: String?, union: Bool, arguments: [DatabaseValue])] = [
        (0, nil, false, []),
        (1, #"WHERE (t."k_name", t."id") > (?, ?) ORDER BY"#, false, ["lamp".databaseValue, "prd_0000000000000001".databaseValue]),
        (2, nil, true, []),
        (
            3, #"WHERE (t."f_price_cur" = ? AND t."f_price" >= ?) AND (t."k_name", t."id") > (?, ?) ORDER BY"#, false,
            ["USD".databaseValue, 100.databaseValue, "desk".databaseValue, "prd_0000000000000003".databaseValue]
        ),
    ]

    @Test(arguments: oneStatementCases.indices)
    func aPageAsOneStatementSeeksAnOrderOfOneDirectionByARowComparison(case index: Int) throws {
        let expected = Self.oneStatementCases[index]
        let table = CatalogTable(Self.products)
        let plan = try CatalogPageQuery(Self.queries[expected.query].query, table: table)
        let (sql, arguments) = plan.seekStatement()
        #expect(sql.hasSuffix("LIMIT 51"))
        #expect(sql.contains(" UNION ALL ") == expected.union)
        if let seek = expected.seek { #expect(sql.contains(seek), "\(sql)") }
        if expected.union {
            #expect(arguments == plan.seekStatements().flatMap(\.arguments))
        } else {
            #expect(arguments == expected.arguments)
        }
        #expect(plan.seekStatement().sql == sql, "from the memo")
    }

    @Test func aShapeKeptForOnePositionServesAnotherWithItsOwnArguments() throws {
        let table = CatalogTable(Self.products)
        let first = try CatalogPageQuery(
            CatalogQuery(collection: Self.products, after: [.text("lamp"), .text("prd_0000000000000001")]), table: table)
        let second = try CatalogPageQuery(
            CatalogQuery(collection: Self.products, after: [.text("vase"), .text("prd_0000000000000009")]), table: table)
        _ = first.seekStatements()
        #expect(Self.pairs(second.seekStatements()) == Self.pairs(second.makeSeekStatements()))
        #expect(table.seekTexts.count == 1)
        let sorted = try CatalogPageQuery(
            CatalogQuery(collection: Self.products, sort: [SortKey("price")], after: [.text("USD"), .integer(1), .text("prd_0000000000000001")]),
            table: table)
        #expect(Self.pairs(sorted.seekStatements()) == Self.pairs(sorted.makeSeekStatements()))
        #expect(table.seekTexts.count == 2)
        let filtered = try CatalogPageQuery(
            CatalogQuery(
                collection: Self.products,
                conditions: [FieldCondition(field: Self.price, operation: .atMost, values: [.money(Money(minorUnits: 900, currency: "USD"))])],
                after: [.text("lamp"), .text("prd_0000000000000001")]),
            table: table)
        #expect(Self.pairs(filtered.seekStatements()) == Self.pairs(filtered.makeSeekStatements()))
        #expect(table.seekTexts.count == 3)
        let descending = try CatalogPageQuery(
            CatalogQuery(
                collection: Self.products, sort: [SortKey("price", descending: true)],
                after: [.text("USD"), .integer(1), .text("prd_0000000000000001")]),
            table: table)
        #expect(Self.pairs(descending.seekStatements()) == Self.pairs(descending.makeSeekStatements()))
        #expect(table.seekTexts.count == 4)
    }
}
