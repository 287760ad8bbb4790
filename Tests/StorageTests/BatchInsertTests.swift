import DemoData
import Domain
import GRDB
import Testing

@testable import Storage

/// A batch's inserts into one collection go in as one statement of several rows, and the items
/// its references name are read once for the batch (`BatchReferences`): the answers, versions
/// and section keys must be those of writes applied one at a time.
@Suite struct BatchInsertTests {
    /// Applies `writes` as one batch without savepoints, several rows an INSERT, in one
    /// transaction of `store`'s database.
    static func apply(
        _ writes: [StoreWrite], to store: DemoStore, rowsPerInsert: Int = 4
    ) throws -> (results: [Result<WrittenItems, StoreError>], start: Int64) {
        let catalogStore = store.store
        return try catalogStore.pool.write { db in
            let start = try ChangeLog.latestSequence(db)
            var writer = CatalogWriter(
                db: db, now: CatalogStore.now(), tables: catalogStore.tables, renderers: catalogStore.renderers,
                catalog: catalogStore.catalog, changes: PendingChanges(after: start), rowsPerInsert: rowsPerInsert)
            let results = try writer.apply(writes, savepoints: false)
            try writer.changes.write(db, now: writer.now)
            try writer.search.apply(db)
            return (results, start)
        }
    }

    static func person(in department: EntityID, _ family: String) -> StoreWrite {
        StoreWrite(write: .insert(StoredItem.person(Fixtures.person(in: department, family: family)).item, collection: "people"))
    }

    static func sectionKey(of id: EntityID, in store: DemoStore) throws -> String? {
        try store.store.pool.read { db in
            try String.fetchOne(db, sql: "SELECT s_key FROM items_people WHERE id = ?", arguments: [id.rawValue])
        }
    }

    @Test func insertsOfOneCollectionTakeDenseVersionsAndAReferenceToNothingIsRefusedAlone() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let department = try await store.insert(.department(Fixtures.department("Optics"))).item.id
        let missing = Fixtures.department("Never written").id
        var writes = (0..<9).map { Self.person(in: department, "Family \($0)") }
        writes.insert(Self.person(in: missing, "Nobody"), at: 4)
        let (results, start) = try Self.apply(writes, to: store)
        var versions: [Int64] = []
        for (index, result) in results.enumerated() {
            if index == 4 {
                #expect(throws: StoreError.self) { try result.get() }
                continue
            }
            let written = try #require(try result.get().first ?? nil)
            versions.append(written.version)
            #expect(try store.item(.people, id: written.item.id)?.version == written.version)
            #expect(try Self.sectionKey(of: written.item.id, in: store) == "optics")
        }
        #expect(versions == Array(start + 1...start + 9), "in order, the refusal's sequence taken back")
        #expect(try store.count(.people) == 9)
    }

    @Test func anIDThatExistsSendsTheBatchBackToRunWithSavepoints() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let department = try await store.insert(.department(Fixtures.department())).item.id
        let first = Self.person(in: department, "First")
        _ = try Self.apply([first], to: store, rowsPerInsert: 1)
        let writes = [Self.person(in: department, "A"), first, Self.person(in: department, "B")]
        #expect(throws: CatalogWriter.PartialWrite.self) { try Self.apply(writes, to: store) }
        #expect(try store.count(.people) == 1, "the failed batch wrote nothing")
    }

    /// A department renamed in the batch before a person joins it gives the person the new
    /// section key; one added in the batch is read from the database, not from the batch's reads.
    @Test func aDepartmentWrittenEarlierInTheBatchIsReadAsWritten() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let department = Fixtures.department("Acoustics")
        _ = try await store.insert(.department(department))
        let added = Fixtures.department("Botany")
        var renamed = department
        renamed.name = "Zoology"
        let before = Self.person(in: department.id, "Before")
        let after = Self.person(in: department.id, "After")
        let newcomer = Self.person(in: added.id, "Newcomer")
        let (results, _) = try Self.apply(
            [
                before, StoreWrite(write: .update(StoredItem.department(renamed).item, collection: "departments", ifVersion: nil)),
                after, StoreWrite(write: .insert(StoredItem.department(added).item, collection: "departments")), newcomer,
            ], to: store)
        for result in results { _ = try result.get() }
        for write in [before, after] {
            guard case .insert(let item, _) = write.write else { continue }
            #expect(try Self.sectionKey(of: item.id, in: store) == "zoology")
        }
        guard case .insert(let item, _) = newcomer.write else { return }
        #expect(try Self.sectionKey(of: item.id, in: store) == "botany")
    }

    @Test(arguments: [(1, 1), (2, 2), (3, 4), (4, 4), (5, 8), (100, 128)])
    func statementSizesArePowersOfTwo(count: Int, padded: Int) {
        #expect(BatchReferences.padded(count) == padded)
        let ids = (0..<count).map { "id\($0)" }
        let arguments = BatchReferences.arguments(ids[...])
        #expect(arguments.count == padded)
        #expect(arguments.last == ids.last?.databaseValue)
    }
}
