import DemoData
import Domain
import Foundation
import Testing

@testable import Storage

/// What a restore keeps and what it refuses, on real files.
@Suite struct StoreRestoreTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    static func key(_ id: String) -> APIKeyRecord {
        APIKeyRecord(id: id, name: id, secretHash: Array(repeating: 7, count: 32), scopes: ["write"], createdAt: 1)
    }

    @Test func aKeyRevokedAfterTheBackupStaysRevokedAndTheBackupsOwnKeysComeBack() throws {
        let path = directory.path("live.sqlite")
        try CatalogStore(path: path, catalog: StoredCollection.catalog).close()
        let keys = try KeyStore(path: path)
        try keys.add(Self.key("kept"))
        let backup = directory.path("backup.sqlite")
        _ = try StoreBackup.backup(from: path, to: backup)
        #expect(try keys.revoke(id: "kept", at: 5))
        // A file that never had the backup's key (a new machine's) gets it.
        let fresh = directory.path("fresh.sqlite")
        _ = try StoreRestore.restore(from: backup, into: fresh, catalog: StoredCollection.catalog)
        _ = try StoreRestore.restore(from: backup, into: path, catalog: StoredCollection.catalog)
        #expect(try KeyStore(path: path).current(id: "kept")?.revokedAt == 5)
        #expect(try KeyStore(path: fresh).current(id: "kept")?.revokedAt == nil)
    }

    @Test func versionsContinuePastEveryNumberEitherFileIssued() async throws {
        let path = directory.path("live.sqlite")
        let live = try DemoStore(path: path)
        _ = try await live.insert(.product(Fixtures.product()))
        let backup = directory.path("backup.sqlite")
        _ = try StoreBackup.backup(from: path, to: backup)
        for _ in 0..<5 { _ = try await live.insert(.product(Fixtures.product())) }
        let issued = try live.latestSequence()
        let summary = try StoreRestore.restore(from: backup, into: path, catalog: StoredCollection.catalog)
        #expect(summary.sequence == issued + 1)
        #expect(summary.items == 1)
        // The open store reads the restore's commit: versions past it, old feed tokens expired.
        #expect(try live.version(of: .products) == issued + 1)
        #expect(try live.count(.products) == 1)
        #expect(throws: StoreError.changesExpired(oldestRetained: issued + 2)) { try live.changes(.products, after: issued, limit: 10) }
        let next = try await live.insert(.product(Fixtures.product()))
        #expect(next.version == issued + 2)
    }

    @Test func aBackupOfAnotherDefinitionChangesNothing() async throws {
        let other = directory.path("other.sqlite")
        let catalog = try CatalogSchemaTests.catalog(CatalogSchemaTests.size)
        let notes = try CatalogStore(path: other, catalog: catalog)
        let kind = try CatalogFixtures.collection(catalog, "notes").kind
        _ = try await notes.insert(
            Item(id: EntityID.generate(kind: kind), in: try CatalogFixtures.collection(catalog, "notes"), ["name": .text("One")]), into: "notes")
        try notes.close()
        let backup = directory.path("backup.sqlite")
        _ = try StoreBackup.backup(from: other, to: backup)
        let path = directory.path("live.sqlite")
        let live = try DemoStore(path: path, options: .init(seedItems: DemoData.standardItems))
        let before = try live.count(.products)
        #expect(throws: StoreError.self) { try StoreRestore.restore(from: backup, into: path, catalog: StoredCollection.catalog) }
        #expect(try live.count(.products) == before)
        #expect(before > 0)
    }

    @Test func aFileThatIsNoBackupIsRefused() throws {
        let path = directory.path("live.sqlite")
        let garbage = directory.path("garbage.sqlite")
        try Data(repeating: 0x41, count: 8_192).write(to: URL(fileURLWithPath: garbage))
        #expect(throws: StoreError.self) { try StoreRestore.restore(from: garbage, into: path, catalog: StoredCollection.catalog) }
        #expect(throws: StoreError.self) {
            try StoreRestore.restore(from: directory.path("missing.sqlite"), into: path, catalog: StoredCollection.catalog)
        }
    }
}
