import DemoData
import Domain
import Testing

@testable import Storage

/// Walking every page returns every row exactly once, in the declared order.
@Suite struct KeysetPagingTests {
    static let store: DemoStore = {
        do {
            return try SharedStores.seeded()
        } catch {
            preconditionFailure("cannot open the seeded store: \(error)")
        }
    }()

    struct Case: CustomTestStringConvertible, Sendable {
        var collection: StoredCollection
        var sort: [SortKey]
        var testDescription: String {
            "\(collection.rawValue) by " + sort.map { ($0.descending ? "-" : "") + $0.field }.joined(separator: ",")
        }
    }

    /// Every sortable field in both directions, the default orders, and mixed directions.
    static let cases: [Case] =
        StoredCollection.allCases.flatMap { collection in
            collection.sortableFields.flatMap { field in
                [Case(collection: collection, sort: [SortKey(field)]), Case(collection: collection, sort: [SortKey(field, descending: true)])]
            }
        } + [
            Case(collection: .people, sort: StoredCollection.people.defaultSort),
            Case(collection: .people, sort: [SortKey("familyName", descending: true), SortKey("givenName", descending: true)]),
            Case(collection: .people, sort: [SortKey("familyName"), SortKey("givenName", descending: true)]),
            Case(collection: .products, sort: [SortKey("price", descending: true), SortKey("name")]),
            Case(collection: .products, sort: [SortKey("price"), SortKey("name", descending: true)]),
            Case(collection: .products, sort: []),
        ]

    @Test(arguments: cases)
    func walkReturnsEveryRowOnceInOrder(_ test: Case) throws {
        let store = Self.store
        let expected: [EntityID]
        let walked: [EntityID]
        if test.collection == .samples {
            expected = standardDataset.tracks.flatMap { track in
                ExpectedOrder.sorted(standardDataset.samples(of: track.id).map(StoredItem.sample), by: test.sort)
            }
            walked = try standardDataset.tracks.flatMap { track in
                try store.walk(ListQuery(collection: .samples, sort: test.sort, parent: track.id, limit: 29)).map(\.item.id)
            }
        } else {
            expected = ExpectedOrder.sorted(standardDataset.items(test.collection), by: test.sort)
            walked = try store.walk(ListQuery(collection: test.collection, sort: test.sort, limit: 7)).map(\.item.id)
        }
        #expect(walked.count == expected.count)
        #expect(walked == expected)
    }

    @Test(arguments: [1, 2, 50, 200])
    func pageSizeDoesNotChangeTheOrder(limit: Int) throws {
        let walked = try Self.store.walk(ListQuery(collection: .people, limit: limit)).map(\.item.id)
        #expect(walked == ExpectedOrder.sorted(standardDataset.items(.people), by: StoredCollection.people.defaultSort))
    }

    @Test func lastPageHasNoNextPosition() throws {
        let page = try Self.store.page(ListQuery(collection: .departments, limit: 200))
        #expect(page.items.count == standardDataset.departments.count)
        #expect(page.nextAfter == nil)
    }

    @Test func nextPositionIsTheSortValuesThenTheID() throws {
        let page = try Self.store.page(ListQuery(collection: .products, sort: [SortKey("price", descending: true), SortKey("name")], limit: 3))
        let last = try #require(page.items.last)
        guard case .product(let product) = last.item else {
            Issue.record("not a product")
            return
        }
        // Money sorts by currency, then amount: two keys.
        #expect(
            page.nextAfter == [
                .text(product.price.currency), .integer(product.price.minorUnits), .text(searchFolded(product.name)), .text(product.id.rawValue),
            ])
    }

    struct BadPosition: Sendable {
        var query: ListQuery
    }

    static let badPositions: [ListQuery] = [
        ListQuery(collection: .products, after: [.text("x")]),
        ListQuery(collection: .products, after: [.integer(3), .text("prd_0000000000000000")]),
        ListQuery(collection: .products, sort: [SortKey("price")], after: [.text("3"), .text("prd_0000000000000000")]),
        ListQuery(collection: .products, sort: [SortKey("colour")]),
        ListQuery(collection: .products, filters: [.department(EntityID(kind: .department, timestampMilliseconds: 1, randomBits: 1))]),
        ListQuery(collection: .products, groupByDepartment: true),
        ListQuery(collection: .samples),
        ListQuery(collection: .samples, search: "abc", parent: EntityID(kind: .track, timestampMilliseconds: 1, randomBits: 1)),
    ]

    @Test(arguments: badPositions)
    func malformedQueryIsACleanError(_ query: ListQuery) {
        #expect(throws: StoreError.self) { try Self.store.page(query) }
    }

    @Test func filtersKeepOnlyMatchingRowsInOrder() throws {
        let department = standardDataset.departments[1]
        let people = try Self.store.walk(ListQuery(collection: .people, filters: [.department(department.id)], limit: 5)).map(\.item.id)
        let expectedPeople = ExpectedOrder.sorted(
            standardDataset.people.filter { $0.departmentID == department.id }.map(StoredItem.person), by: StoredCollection.people.defaultSort)
        #expect(!people.isEmpty)
        #expect(people == expectedPeople)

        // Money bounds keep to their currency: 100.00 to 500.00 USD, no yen or euros.
        let low = Money(minorUnits: 10_000, currency: "USD")
        let high = Money(minorUnits: 50_000, currency: "USD")
        let products = try Self.store.walk(
            ListQuery(collection: .products, sort: [SortKey("price")], filters: [.minPrice(low), .maxPrice(high)], limit: 13)
        ).map(\.item.id)
        let expectedProducts = ExpectedOrder.sorted(
            standardDataset.products.filter { $0.price.currency == "USD" && (10_000...50_000).contains($0.price.minorUnits) }.map(StoredItem.product),
            by: [SortKey("price")])
        #expect(!products.isEmpty)
        #expect(products == expectedProducts)
    }

    @Test(arguments: [StoredCollection.people.defaultSort, [SortKey("familyName", descending: true)], [SortKey("emailAddress")]])
    func sectionsOrderDepartmentsByNameThenTheSort(_ sort: [SortKey]) throws {
        var query = ListQuery(collection: .people, sort: sort, groupByDepartment: true, limit: 9)
        var walked: [EntityID] = []
        while true {
            let page = try Self.store.page(query)
            for case .person(let person) in page.items.map(\.item) {
                #expect(page.departments[person.departmentID] == standardDataset.departmentsByID[person.departmentID])
                walked.append(person.id)
            }
            guard let next = page.nextAfter else { break }
            #expect(next.count == sort.count + 3)
            query.after = next
        }
        #expect(walked == ExpectedOrder.sorted(standardDataset.items(.people), by: sort, departments: standardDataset.departmentsByID))
    }
}
