import DemoData
import Domain
import Testing

@testable import Storage

/// Inserts, updates and deletes: round trips, versions, preconditions and references.
@Suite struct WriteTests {
    @Test func everyCollectionRoundTripsItsItems() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        for item in Fixtures.oneOfEach() {
            let written = try await store.insert(item)
            #expect(written.item == item)
            let read = try #require(try store.item(item.collection, id: item.id))
            #expect(read == written, "\(item.collection)")
        }
    }

    @Test func eachWriteBumpsTheItemAndCollectionVersions() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        var product = Fixtures.product()
        let inserted = try await store.insert(.product(product))
        #expect(inserted.version == 1)
        #expect(try store.version(of: .products) == 1)
        #expect(try store.latestSequence() == 1)

        product.name = "Floor Lamp"
        let updated = try await store.update(.product(product), ifVersion: inserted.version)
        #expect(updated.version == 2)
        #expect(try store.item(.products, id: product.id)?.version == 2)

        _ = try await store.insert(.department(Fixtures.department()))
        #expect(try store.version(of: .products) == 2)
        #expect(try store.version(of: .departments) == 3)

        try await store.delete(.products, id: product.id, ifVersion: 2)
        #expect(try store.version(of: .products) == 4)
        #expect(try store.item(.products, id: product.id) == nil)
    }

    @Test func staleIfVersionChangesNothing() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        var product = Fixtures.product()
        let inserted = try await store.insert(.product(product))
        product.name = "Changed"
        await #expect(throws: StoreError.versionMismatch(current: inserted.version)) {
            try await store.update(.product(product), ifVersion: inserted.version + 5)
        }
        await #expect(throws: StoreError.versionMismatch(current: inserted.version)) {
            try await store.delete(.products, id: product.id, ifVersion: 0)
        }
        #expect(try store.item(.products, id: product.id) == inserted)
        #expect(try store.latestSequence() == inserted.version)
        #expect(try store.version(of: .products) == inserted.version)
    }

    @Test func missingItemsAreNotFound() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let product = Fixtures.product()
        await #expect(throws: StoreError.missing(collection: "products", product.id)) { try await store.update(.product(product), ifVersion: nil) }
        await #expect(throws: StoreError.missing(collection: "products", product.id)) {
            try await store.delete(.products, id: product.id, ifVersion: nil)
        }
    }

    @Test func insertingAnExistingIDIsAVersionMismatch() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let product = Fixtures.product()
        let inserted = try await store.insert(.product(product))
        await #expect(throws: StoreError.versionMismatch(current: inserted.version)) { try await store.insert(.product(product)) }
    }

    @Test func unknownReferencesAreRejectedAndNothingIsWritten() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let missingDepartment = EntityID.generate(kind: .department)
        await #expect(throws: StoreError.invalidReference(field: "/departmentID", id: missingDepartment)) {
            try await store.insert(.person(Fixtures.person(in: missingDepartment)))
        }
        let missingTrack = EntityID.generate(kind: .track)
        await #expect(throws: StoreError.invalidReference(field: "/trackID", id: missingTrack)) {
            try await store.insert(.sample(Fixtures.sample(of: missingTrack, at: 0)))
        }
        #expect(try store.count(.people) == 0)
        #expect(try store.latestSequence() == 0)

        let department = Fixtures.department()
        _ = try await store.insert(.department(department))
        var person = Fixtures.person(in: department.id)
        _ = try await store.insert(.person(person))
        person.departmentID = missingDepartment
        await #expect(throws: StoreError.invalidReference(field: "/departmentID", id: missingDepartment)) {
            try await store.update(.person(person), ifVersion: nil)
        }
    }

    @Test func departmentWithPeopleCannotBeDeleted() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let department = Fixtures.department()
        _ = try await store.insert(.department(department))
        let person = Fixtures.person(in: department.id)
        _ = try await store.insert(.person(person))
        await #expect(throws: StoreError.self) { try await store.delete(.departments, id: department.id, ifVersion: nil) }
        do {
            try await store.delete(.departments, id: department.id, ifVersion: nil)
        } catch {
            guard case .stillReferenced = error else {
                Issue.record("expected stillReferenced, got \(error)")
                return
            }
        }
        try await store.delete(.people, id: person.id, ifVersion: nil)
        try await store.delete(.departments, id: department.id, ifVersion: nil)
        #expect(try store.count(.departments) == 0)
    }

    @Test func renamingADepartmentMovesItsSection() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let alpha = Fixtures.department("Alpha")
        let beta = Fixtures.department("Beta")
        for department in [alpha, beta] { _ = try await store.insert(.department(department)) }
        let inAlpha = Fixtures.person(in: alpha.id, given: "Zed", family: "Young")
        let inBeta = Fixtures.person(in: beta.id, given: "Amy", family: "Adams")
        for person in [inAlpha, inBeta] { _ = try await store.insert(.person(person)) }
        let grouped = ListQuery(collection: .people, groupByDepartment: true)
        #expect(try store.page(grouped).items.map(\.item.id) == [inAlpha.id, inBeta.id])

        _ = try await store.update(.department(Department(id: alpha.id, name: "Ómega")), ifVersion: nil)
        let page = try store.page(grouped)
        #expect(page.items.map(\.item.id) == [inBeta.id, inAlpha.id])
        #expect(page.departments[alpha.id]?.name == "Ómega")
    }

    @Test func deletingATrackDeletesItsSamplesWithChangeEntries() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let track = Fixtures.track()
        _ = try await store.insert(.track(track))
        let samples = (0..<3).map { Fixtures.sample(of: track.id, at: Int64($0) * 10) }
        for sample in samples { _ = try await store.insert(.sample(sample)) }
        let before = try store.latestSequence()
        try await store.delete(.tracks, id: track.id, ifVersion: nil)
        #expect(try store.count(.samples) == 0)
        let feed = try store.changes(.samples, after: before, limit: 10)
        #expect(feed.changes.map(\.id) == samples.map(\.id))
        #expect(feed.changes.allSatisfy { $0.operation == .delete && $0.item == nil })
        #expect(try store.version(of: .samples) > before)
    }

    @Test func idOfAnotherKindIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let department = Fixtures.department()
        let wrong = Product(
            id: department.id, name: "X", shortDescription: "", longDescription: "", price: Money(minorUnits: 1, currency: "USD"))
        await #expect(throws: StoreError.self) { try await store.insert(.product(wrong)) }
        #expect(try store.count(.products) == 0)
    }
}
