import Domain
import GRDB
import Testing

@testable import Storage

/// A PostgreSQL search page's statement (`CatalogPageQuery.boundedSearchStatement`): the rows
/// after a position as one condition, and every placeholder bound, for every order. What it
/// reads is held against SQLite by PostgresPageTests.
@Suite struct BoundedSearchStatementTests {
    static let queries = SeekTextsTests.queries

    static let positions: [(query: Int, condition: String?, arguments: [DatabaseValue])] = [
        (0, nil, []),
        (1, #"(t."k_name", t."id") > (?, ?)"#, ["lamp".databaseValue, "prd_0000000000000001".databaseValue]),
        (
            2, #"((t."k_price_cur" < ?) OR (t."k_price_cur" = ? AND t."k_price" < ?) OR (t."k_price_cur" = ? AND t."k_price" = ? AND t."id" > ?))"#,
            [
                "USD".databaseValue, "USD".databaseValue, 500.databaseValue, "USD".databaseValue, 500.databaseValue,
                "prd_0000000000000002".databaseValue,
            ]
        ),
    ]

    @Test(arguments: positions.indices)
    func theRowsAfterAPositionAreOneCondition(case index: Int) throws {
        let expected = Self.positions[index]
        let plan = try CatalogPageQuery(Self.queries[expected.query].query, table: CatalogTable(SeekTextsTests.products))
        let condition = plan.positionCondition()
        #expect(condition?.sql == expected.condition)
        #expect((condition?.arguments ?? []) == expected.arguments)
    }

    @Test(arguments: 0..<4)
    func everyPlaceholderHasItsArgument(case index: Int) throws {
        let table = CatalogTable(SeekTextsTests.products)
        let plan = try CatalogPageQuery(Self.queries[index].query, table: table)
        let (sql, arguments) = plan.boundedSearchStatement(pattern: "%lamp%", walk: 1_500)
        #expect(sql.filter { $0 == "?" }.count == arguments.count, "\(sql)")
        #expect(arguments.filter { $0 == "%lamp%".databaseValue }.count == 4, "the pattern, in both parts")
        #expect(sql.contains("LIMIT 1500"), "the walk's bound")
        #expect(sql.hasSuffix("LIMIT 51"))
        #expect(plan.boundedSearchStatement(pattern: "%desk%", walk: 1_500).sql == sql, "from the memo")
        #expect(plan.boundedSearchStatement(pattern: "%desk%", walk: 20).sql != sql, "another walk, another text")
    }
}
