import DemoData
import Domain
import Foundation
import Testing

@testable import Storage

/// `rowserver import`: JSON Lines in, all or nothing, bad lines named.
@Suite struct ImportTests {
    static let keyboard =
        #"{"name":"Keyboard","shortDescription":"Mechanical","longDescription":"Clicky.","price":{"minorUnits":12000,"currency":"USD"}}"#

    func write(_ lines: [String], in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("import-\(UUID().uuidString).jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func goodFileImportsEveryLineWithVersionsAndChanges() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let id = EntityID.generate(kind: .product)
        let lines = [
            Self.keyboard,
            "",
            #"{"id":"\#(id)","name":"Mouse","shortDescription":"Quiet","longDescription":"","price":{"minorUnits":2500,"currency":"EUR"}}"#,
            "   ",
            #"{"name":"Kettle","shortDescription":"Steel","longDescription":"Hot.","price":{"minorUnits":0,"currency":"JPY"}}"#,
        ]
        var reported: [JSONLImporter.Progress] = []
        let count = try JSONLImporter(collection: .products).run(path: write(lines, in: directory), into: store) { reported.append($0) }
        #expect(count == 3)
        #expect(try store.count(.products) == 3)
        #expect(try store.latestSequence() == 3)
        #expect(try store.version(of: .products) == 3)
        let mouse = try #require(try store.item(.products, id: id))
        #expect(mouse.version == 2)
        #expect(try store.changes(.products, after: 0, limit: 10).changes.map(\.operation) == [.insert, .insert, .insert])
        #expect(reported.last?.lines == 5)
        #expect(reported.last?.fraction == 1)
        let names = try store.walk(ListQuery(collection: .products)).compactMap { item -> String? in
            guard case .product(let product) = item.item else { return nil }
            return product.name
        }
        #expect(names == ["Kettle", "Keyboard", "Mouse"])
        // An import indexes its rows for search at its end: phrases and short texts find them.
        func found(_ text: String) throws -> Set<EntityID> {
            Set(try store.walk(ListQuery(collection: .products, search: text, limit: 2)).map(\.item.id))
        }
        #expect(try found("quiet") == [id])
        #expect(try found("ui") == [id])
        #expect(try found("ket").count == 1)
        #expect(try found("zz").isEmpty)
    }

    @Test func aBadLineImportsNothingAndIsNamed() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store(seed: true)
        let before = try store.count(.products)
        let sequence = try store.latestSequence()
        let lines = [
            Self.keyboard, Self.keyboard, #"{"name":"Bad","shortDescription":"","longDescription":"","price":{"minorUnits":5,"currency":"XYZ"}}"#,
            Self.keyboard,
        ]
        #expect {
            try JSONLImporter(collection: .products).run(path: write(lines, in: directory), into: store)
        } throws: { error in
            guard case JSONLImporter.Failure.badLines(let bad, let total) = error else { return false }
            return total == 1 && bad.map(\.line) == [3] && bad[0].reason.contains("/price/currency") && "\(error)".hasPrefix("line 3: ")
        }
        #expect(try store.count(.products) == before)
        #expect(try store.latestSequence() == sequence)
        #expect(
            try store.page(ListQuery(collection: .products, search: "keyboard", limit: 200)).items.count
                == standardDataset.products.filter { $0.name.contains("Keyboard") }.count)
    }

    struct BadLineCase: Sendable, CustomTestStringConvertible {
        var collection: StoredCollection
        var line: String
        var reason: String
        var testDescription: String { reason }
    }

    static let missingDepartment = EntityID.generate(kind: .department)
    static let badLines: [BadLineCase] = [
        BadLineCase(collection: .products, line: "{not json", reason: "not valid JSON"),
        BadLineCase(collection: .products, line: "[1, 2]", reason: "not a JSON object"),
        BadLineCase(collection: .products, line: #"{"name":"A","shortDescription":"","longDescription":""}"#, reason: "/price: Required"),
        BadLineCase(
            collection: .products, line: #"{"name":"A","shortDescription":"","longDescription":"","price":{"minorUnits":"ten","currency":"USD"}}"#,
            reason: "/price/minorUnits: Must be a number"),
        BadLineCase(
            collection: .products, line: #"{"name":" ","shortDescription":"","longDescription":"","price":{"minorUnits":1,"currency":"USD"}}"#,
            reason: "/name: Must not be blank"),
        BadLineCase(
            collection: .products, line: #"{"name":"A","shortDescription":"","longDescription":"","price":{"minorUnits":-1,"currency":"USD"}}"#,
            reason: "/price/minorUnits: Must not be negative"),
        BadLineCase(collection: .departments, line: #"{"id":"prd_0000000000000000","name":"A"}"#, reason: "is not a dep_ id"),
        BadLineCase(collection: .departments, line: #"{"id":"dep_nope","name":"A"}"#, reason: "id is not a dep_ id"),
        BadLineCase(
            collection: .people,
            line: #"{"givenName":"A","familyName":"B","emailAddress":"a@b","phoneNumber":"1","departmentID":"\#(missingDepartment)"}"#,
            reason: "departmentID \"\(missingDepartment)\" does not exist"),
        BadLineCase(collection: .samples, line: #"{"trackID":"trk_0000000000000000","timestampMilliseconds":1,"levels":[]}"#, reason: "trackID"),
        BadLineCase(collection: .tracks, line: #"{"title":"T","channels":[{"name":""}]}"#, reason: "/channels/0/name: Must not be empty"),
        // Unknown fields are refused as the API refuses them: a typo never drops data silently.
        BadLineCase(
            collection: .products,
            line: #"{"name":"A","shortDescription":"","longDescription":"","price":{"minorUnits":1,"currency":"USD"},"extra":true}"#,
            reason: "/extra: Unknown field"),
    ]

    @Test(arguments: badLines)
    func badLinesSayWhy(_ test: BadLineCase) throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let path = try write([test.line], in: directory)
        #expect {
            try JSONLImporter(collection: test.collection).run(path: path, into: store)
        } throws: { error in
            guard case JSONLImporter.Failure.badLines(let bad, _) = error, let first = bad.first else { return false }
            return first.line == 1 && first.reason.contains(test.reason)
        }
        #expect(try store.latestSequence() == 0)
    }

    @Test func everyBadLineIsReportedUpToTheLimit() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let id = EntityID.generate(kind: .department)
        let duplicate = #"{"id":"\#(id)","name":"Twice"}"#
        let lines = [duplicate, "{}", #"{"name":"ok"}"#, duplicate] + Array(repeating: "oops", count: 30)
        #expect {
            try JSONLImporter(collection: .departments, reportLimit: 5).run(path: write(lines, in: directory), into: store)
        } throws: { error in
            guard case JSONLImporter.Failure.badLines(let bad, let total) = error else { return false }
            return total == 32 && bad.map(\.line) == [2, 4, 5, 6, 7] && bad[1].reason.contains("already exists")
                && "\(error)".contains("and 27 more")
        }
        #expect(try store.count(.departments) == 0)
    }

    @Test func missingFileIsUnreadable() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        #expect {
            try JSONLImporter(collection: .products).run(path: directory.path("absent.jsonl"), into: store)
        } throws: { error in
            guard case JSONLImporter.Failure.unreadable = error else { return false }
            return true
        }
    }

    @Test func importedIDsAreUniqueAndTimeOrdered() {
        var allocator = IDAllocator()
        let now = Date()
        let ids = (0..<10_000).map { _ in allocator.next(.product, now: now) }
        #expect(Set(ids).count == ids.count)
        #expect(ids == ids.sorted())
    }

    /// A load larger than the change log keeps writes the entries of its newest items only,
    /// and still moves every loaded collection's version: here the departments' entries all
    /// fall below the retention, yet their version is their newest item's.
    @Test func aLoadLargerThanTheRetentionLogsItsNewestItemsAndVersionsEveryCollection() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store(retention: 5)
        let departments = (0..<3).map { Fixtures.department("Department \($0)") }
        let products = (0..<8).map { Fixtures.product("Lamp \($0)") }
        try store.bulkLoad { loader in
            for department in departments { try loader.insert(.department(department)) }
            for product in products { try loader.insert(.product(product)) }
        }
        #expect(try store.latestSequence() == 11)
        #expect(try store.version(of: .departments) == 3)
        #expect(try store.version(of: .products) == 11)
        #expect(try store.count(changesIn: .products) == 5)
        #expect(try store.count(changesIn: .departments) == 0)
        let newest = try store.changes(.products, after: 6, limit: 10).changes
        #expect(newest.map(\.sequence) == [7, 8, 9, 10, 11])
        #expect(newest.compactMap(\.item?.item.id) == products.suffix(5).map(\.id))
        #expect(throws: StoreError.changesExpired(oldestRetained: 7)) { try store.changes(.products, after: 0, limit: 10) }
        // The loaded rows are searchable, and the next write takes the next sequence.
        #expect(try store.walk(ListQuery(collection: .products, search: "lamp")).count == 8)
        #expect(try await store.insert(.product(Fixtures.product("Desk"))).version == 12)
    }

    /// A load finds an existing id by its insert writing nothing: the item is refused, the load
    /// goes on, and versions stay dense.
    @Test func aDuplicateInALoadIsRefusedAndTakesNoVersion() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let first = Fixtures.product("Lamp")
        let second = Fixtures.product("Desk")
        let refusals = try store.bulkLoad { loader in
            var refusals: [StoreError] = []
            for product in [first, first, second] {
                do {
                    try loader.insert(.product(product))
                } catch let error as StoreError {
                    refusals.append(error)
                }
            }
            return refusals
        }
        #expect(refusals == [.versionMismatch(current: 1)])
        #expect(try store.item(.products, id: second.id)?.version == 2)
        #expect(try store.latestSequence() == 2)
        #expect(try store.count(changesIn: .products) == 2)
    }
}
