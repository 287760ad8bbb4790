import Definitions
import DemoData
import Domain
import Foundation
import Testing

@testable import Storage

@Suite("A store made from a definition")
struct CatalogStoreTests {
    let catalog: Catalog
    let directory: TemporaryDirectory

    init() throws {
        catalog = try DefinitionLoader.demo()
        directory = try TemporaryDirectory()
    }

    func collection(_ name: String) throws -> CollectionDefinition { try CatalogFixtures.collection(catalog, name) }

    @Test func aNewDatabaseIsSeededWithEveryDemoItem() throws {
        let store = try directory.catalogStore(catalog: catalog, seed: true)
        let dataset = DemoData(seed: 1).dataset()
        let people = try store.walk(CatalogQuery(collection: try collection("people"), limit: 200))
        #expect(people.count == dataset.people.count)
        let product = try #require(dataset.products.first)
        let stored = try #require(try store.item("products", id: product.id))
        #expect(stored.item == DemoItems.product(product, in: try collection("products")))
        #expect(try store.version(of: "products") > 0)
    }

    @Test(arguments: [1, 7, 50])
    func aWalkByTheDefaultOrderReturnsEveryPersonOnceInOrder(limit: Int) throws {
        let store = try directory.catalogStore(catalog: catalog, seed: true)
        let people = try collection("people")
        let walked = try store.walk(CatalogQuery(collection: people, limit: limit)).map(\.item)
        let expected = DemoData(seed: 1).dataset().people.map { DemoItems.person($0, in: people) }.sorted { a, b in
            let left = [
                searchFolded(a.value(of: "familyName", in: people).text ?? ""), searchFolded(a.value(of: "givenName", in: people).text ?? ""),
            ]
            let right = [
                searchFolded(b.value(of: "familyName", in: people).text ?? ""), searchFolded(b.value(of: "givenName", in: people).text ?? ""),
            ]
            return left != right ? left.lexicographicallyPrecedes(right, by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) : a.id < b.id
        }
        #expect(walked.map(\.id) == expected.map(\.id))
    }

    /// Money sorts by currency, then amount: amounts of different currencies never interleave.
    @Test func pricesSortByCurrencyThenAmountDescending() throws {
        let store = try directory.catalogStore(catalog: catalog, seed: true)
        let products = try collection("products")
        let walked = try store.walk(CatalogQuery(collection: products, sort: [SortKey("price", descending: true)], limit: 37))
        let prices = walked.compactMap { item -> Money? in
            if case .money(let money) = item.item.value(of: "price", in: products) { return money }
            return nil
        }
        #expect(prices.count == walked.count)
        for (a, b) in zip(prices, prices.dropFirst()) {
            #expect(a.currency > b.currency || (a.currency == b.currency && a.minorUnits >= b.minorUnits))
        }
    }

    @Test func sectionsWalkDepartmentsByNameAndNeverSplitOne() throws {
        let store = try directory.catalogStore(catalog: catalog, seed: true)
        let people = try collection("people")
        let walked = try store.walk(CatalogQuery(collection: people, sections: true, limit: 9))
        #expect(walked.count == DemoData(seed: 1).dataset().people.count)
        let departments = try store.walk(CatalogQuery(collection: try collection("departments"), limit: 50)).map(\.item.id)
        var seen: [EntityID] = []
        for item in walked {
            let department = try #require(item.item.value(of: "departmentID", in: people).reference)
            if seen.last != department {
                #expect(!seen.contains(department), "a department's people come together")
                seen.append(department)
            }
        }
        #expect(seen == departments.filter(seen.contains))
    }

    @Test func filtersKeepOnlyMatchingItems() throws {
        let store = try directory.catalogStore(catalog: catalog, seed: true)
        let people = try collection("people")
        let department = try #require(DemoData(seed: 1).dataset().departments.first)
        let field = try #require(people.fieldIndex(named: "departmentID"))
        let walked = try store.walk(
            CatalogQuery(collection: people, conditions: [FieldCondition(field: field, operation: .equals, values: [.reference(department.id)])]))
        #expect(!walked.isEmpty)
        #expect(walked.allSatisfy { $0.item.value(of: "departmentID", in: people).reference == department.id })
        let products = try collection("products")
        let price = try #require(products.fieldIndex(named: "price"))
        let bound = Money(minorUnits: 10_000, currency: "USD")
        let cheap = try store.walk(
            CatalogQuery(collection: products, conditions: [FieldCondition(field: price, operation: .atMost, values: [.money(bound)])]))
        #expect(!cheap.isEmpty)
        for item in cheap {
            guard case .money(let money) = item.item.value(of: "price", in: products) else {
                Issue.record("no price")
                continue
            }
            #expect(money.currency == "USD" && money.minorUnits <= 10_000)
        }
    }

    @Test(arguments: ["key", "KÉY", "ke", "k", "zzzqqq"])
    func searchFindsExactlyTheItemsWhoseTextsContainTheQuery(query: String) throws {
        let store = try directory.catalogStore(catalog: catalog, seed: true)
        let products = try collection("products")
        let renderer = ItemRenderer(collection: products, catalog: catalog)
        let found = try store.walk(CatalogQuery(collection: products, search: query, limit: 100)).map(\.item.id)
        let all = try store.walk(CatalogQuery(collection: products, limit: 200))
        let folded = searchFolded(query)
        let expected = all.filter {
            renderer.searchTexts(of: $0.item, references: .none).contains { $0.map { searchFolded($0).contains(folded) } ?? false }
        }.map(
            \.item.id)
        #expect(found == expected)
        if query != "zzzqqq" { #expect(!found.isEmpty) }
    }

    @Test func writesAreVersionedAndSearchFollowsThem() async throws {
        let store = try directory.catalogStore(catalog: catalog)
        let products = try collection("products")
        let id = EntityID.generate(kind: products.kind)
        let lamp = Item(
            id: id, in: products,
            [
                "name": .text("Lamp"), "shortDescription": .text("Warm"), "longDescription": .text(""),
                "price": .money(Money(minorUnits: 4500, currency: "EUR")),
            ])
        let created = try await store.insert(lamp, into: "products")
        #expect(try store.version(of: "products") == created.version)
        #expect(try store.walk(CatalogQuery(collection: products, search: "lamp")).map(\.item.id) == [id])
        var renamed = lamp
        renamed.values[0] = .text("Lantern")
        let updated = try await store.update(renamed, in: "products", ifVersion: created.version)
        #expect(updated.version > created.version)
        #expect(try store.walk(CatalogQuery(collection: products, search: "lamp")).isEmpty)
        #expect(try store.walk(CatalogQuery(collection: products, search: "lant")).map(\.item.id) == [id])
        await #expect(throws: StoreError.versionMismatch(current: updated.version)) {
            try await store.update(lamp, in: "products", ifVersion: created.version)
        }
        try await store.delete(id, from: "products", ifVersion: updated.version)
        #expect(try store.item("products", id: id) == nil)
        #expect(try store.walk(CatalogQuery(collection: products, search: "lant")).isEmpty)
        await #expect(throws: StoreError.missing(collection: "products", id)) { try await store.delete(id, from: "products", ifVersion: nil) }
    }

    @Test func referencesAreCheckedAndRestrictOrCascadeOnDelete() async throws {
        let store = try directory.catalogStore(catalog: catalog, seed: true)
        let people = try collection("people")
        let dataset = DemoData(seed: 1).dataset()
        let person = try #require(dataset.people.first)
        var moved = DemoItems.person(person, in: people)
        let nowhere = EntityID.generate(kind: .department)
        moved.values[4] = .reference(nowhere)
        await #expect(throws: StoreError.invalidReference(field: "/departmentID", id: nowhere)) {
            try await store.update(moved, in: "people", ifVersion: nil)
        }
        await #expect(throws: StoreError.self) { try await store.delete(person.departmentID, from: "departments", ifVersion: nil) }
        #expect(try store.item("departments", id: person.departmentID) != nil)

        let track = try #require(dataset.tracks.first)
        let samples = try collection("samples")
        let before = try store.walk(CatalogQuery(collection: samples, parent: track.id))
        #expect(before.count == dataset.samples(of: track.id).count)
        let since = try store.latestSequence()
        try await store.delete(track.id, from: "tracks", ifVersion: nil)
        #expect(try store.walk(CatalogQuery(collection: samples, parent: track.id)).isEmpty)
        let feed = try store.changes("samples", after: since, limit: 10_000)
        #expect(Set(feed.changes.map(\.id)) == Set(before.map(\.item.id)))
        #expect(feed.changes.allSatisfy { $0.operation == .delete })
    }

    @Test func renamingADepartmentMovesItsSectionInTheOrder() async throws {
        let store = try directory.catalogStore(catalog: catalog, seed: true)
        let people = try collection("people")
        let departments = try collection("departments")
        let first = try #require(try store.walk(CatalogQuery(collection: people, sections: true, limit: 1)).first)
        let department = try #require(first.item.value(of: "departmentID", in: people).reference)
        let renamed = Item(id: department, in: departments, ["name": .text("Zzz Last")])
        _ = try await store.update(renamed, in: "departments", ifVersion: nil)
        let walked = try store.walk(CatalogQuery(collection: people, sections: true, limit: 13))
        #expect(walked.last?.item.value(of: "departmentID", in: people).reference == department)
        #expect(walked.first?.item.value(of: "departmentID", in: people).reference != department)
    }

    @Test func theFeedHasOneEntryPerItemInItsLastState() async throws {
        let store = try directory.catalogStore(catalog: catalog)
        let departments = try collection("departments")
        let since = try store.latestSequence()
        let id = EntityID.generate(kind: departments.kind)
        let created = try await store.insert(Item(id: id, in: departments, ["name": .text("Ops")]), into: "departments")
        _ = try await store.update(Item(id: id, in: departments, ["name": .text("Operations")]), in: "departments", ifVersion: created.version)
        let other = EntityID.generate(kind: departments.kind)
        _ = try await store.insert(Item(id: other, in: departments, ["name": .text("Legal")]), into: "departments")
        let feed = try store.changes("departments", after: since, limit: 100)
        #expect(feed.changes.map(\.id) == [id, other])
        #expect(feed.changes[0].item?.item.value(of: "name", in: departments) == .text("Operations"))
        try await store.delete(id, from: "departments", ifVersion: nil)
        let after = try store.changes("departments", after: since, limit: 100)
        #expect(after.changes.map(\.id) == [other, id])
        #expect(after.changes.map(\.operation) == [.insert, .delete])
        #expect(after.changes[1].item == nil)
    }

    @Test func itemsSurviveReopening() async throws {
        let path = directory.path("reopen.sqlite")
        let departments = try collection("departments")
        let id = EntityID.generate(kind: departments.kind)
        do {
            let store = try CatalogStore(path: path, catalog: catalog)
            _ = try await store.insert(Item(id: id, in: departments, ["name": .text("Kept")]), into: "departments")
            try store.close()
        }
        let reopened = try CatalogStore(path: path, catalog: catalog)
        #expect(try reopened.item("departments", id: id)?.item.value(of: "name", in: departments) == .text("Kept"))
        #expect(try reopened.version(of: "departments") > 0)
    }
}
