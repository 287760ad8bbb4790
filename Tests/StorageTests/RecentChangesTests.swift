import DemoData
import Domain
import Testing

@testable import Storage

/// What the store knows of the items changed after a sequence: exactly, or not at all.
@Suite struct RecentChangesTests {
    static let lamp = ItemAddress("products", EntityID(kind: .product, timestampMilliseconds: 1, randomBits: 1))
    static let chair = ItemAddress("products", EntityID(kind: .product, timestampMilliseconds: 1, randomBits: 2))
    static let sales = ItemAddress("departments", EntityID(kind: .department, timestampMilliseconds: 1, randomBits: 1))

    /// A window started at 10 that read the lamp's change at 12 and the chair's at 15, through 20.
    static func window() -> RecentChanges {
        var recent = RecentChanges(at: 10)
        recent.record([(12, lamp), (15, chair)], after: 10, through: 20)
        return recent
    }

    @Test(arguments: [
        ("an item changed after the answer", [lamp], Int64(11), Int64(20), false),
        ("an item changed before the answer", [lamp], 12, 20, true),
        ("items none of which changed after it", [lamp, chair], 15, 20, true),
        ("one of several changed after it", [lamp, chair, sales], 14, 20, false),
        ("an item never named", [sales], 10, 20, true),
        ("no items", [], 10, 20, true),
        ("an answer from before the window", [sales], 9, 20, false),
        ("a latest sequence the window has not read", [sales], 15, 21, false),
    ])
    func unchangedAnswersOnlyWhatTheWindowCovers(case: String, items: [ItemAddress], since: Int64, latest: Int64, unchanged: Bool) {
        #expect(Self.window().unchanged(items, since: since, latest: latest) == unchanged, "\(`case`)")
    }

    @Test func aBurstPastCapacityKeepsHalvingTheWindow() {
        var recent = RecentChanges(at: 0, capacity: 2)
        let items = (1...4).map { ItemAddress("products", EntityID(kind: .product, timestampMilliseconds: 2, randomBits: UInt32($0))) }
        // Four changes at the window's very end: one halving keeps all of them.
        recent.record(items.enumerated().map { (Int64(97 + $0.offset), $0.element) }, after: 0, through: 100)
        #expect(recent.count <= 2)
        #expect(recent.from >= 98)
        #expect(!recent.unchanged([items[3]], since: recent.from, latest: 100))
    }

    @Test func aReadThatDoesNotFollowOnIsLeftForTheNextRead() {
        var recent = Self.window()
        recent.record([(25, Self.sales)], after: 22, through: 30)
        #expect(recent.through == 20, "entries after 22 leave (20, 22] unread")
        #expect(recent.unchanged([Self.sales], since: 20, latest: 20))
        recent.record([(21, Self.lamp), (25, Self.sales)], after: 20, through: 30)
        #expect(recent.through == 30)
        #expect(!recent.unchanged([Self.lamp], since: 20, latest: 30))
        #expect(!recent.unchanged([Self.sales], since: 24, latest: 30))
        #expect(recent.unchanged([Self.chair], since: 20, latest: 30))
    }

    @Test func aRestartVouchesForNothingBeforeIt() {
        var recent = Self.window()
        recent.restart(at: 40)
        #expect(recent.count == 0)
        #expect(!recent.unchanged([Self.chair], since: 20, latest: 40), "made before the restart: not vouched for")
        #expect(recent.unchanged([Self.chair], since: 40, latest: 40))
    }

    @Test func pastItsCapacityTheOlderHalfOfTheWindowIsForgotten() {
        var recent = RecentChanges(at: 0, capacity: 4)
        let items = (1...5).map { ItemAddress("products", EntityID(kind: .product, timestampMilliseconds: 1, randomBits: UInt32($0))) }
        recent.record(items.enumerated().map { (Int64($0.offset + 1), $0.element) }, after: 0, through: 5)
        #expect(recent.count == 3, "sequences 3…5 are kept")
        #expect(recent.from == 2, "the middle of the window (0, 5]")
        #expect(!recent.unchanged([items[0]], since: 1, latest: 5), "an answer older than the window")
        #expect(!recent.unchanged([items[4]], since: 4, latest: 5))
        #expect(recent.unchanged([items[0], items[1]], since: 2, latest: 5), "forgotten entries were older than the window")
    }

    // MARK: - Through a store, on real files

    /// A store on a new file holding a lamp and a chair, and the sequence after both.
    static func lampAndChair(_ directory: TemporaryDirectory) async throws -> (store: DemoStore, lamp: Product, chair: Product, made: Int64) {
        let store = try directory.store()
        let lamp = Fixtures.product("Lamp")
        let chair = Fixtures.product("Chair")
        _ = try await store.insert(.product(lamp))
        _ = try await store.insert(.product(chair))
        return (store, lamp, chair, try store.latestSequence())
    }

    @Test func aStoreVouchesForItemsOtherWritesLeftAlone() async throws {
        let directory = try TemporaryDirectory()
        let (store, lamp, chair, made) = try await Self.lampAndChair(directory)
        var moved = chair
        moved.name = "Chair II"
        _ = try await store.update(.product(moved), ifVersion: nil)
        let lampAddress = ItemAddress("products", lamp.id)
        let chairAddress = ItemAddress("products", chair.id)
        #expect(try store.store.unchanged([lampAddress], since: made))
        #expect(try !store.store.unchanged([chairAddress], since: made))
        #expect(try !store.store.unchanged([lampAddress, chairAddress], since: made))
    }

    @Test func anotherConnectionsCommitIsReadFromTheLog() async throws {
        let directory = try TemporaryDirectory()
        let (store, lamp, chair, made) = try await Self.lampAndChair(directory)
        let other = try directory.store()
        var renamed = lamp
        renamed.name = "Lamp II"
        _ = try await other.update(.product(renamed), ifVersion: nil)
        #expect(try !store.store.unchanged([ItemAddress("products", lamp.id)], since: made))
        #expect(try store.store.unchanged([ItemAddress("products", chair.id)], since: made))
        #expect(try store.latestSequence() > made)
    }

    @Test func aLogPrunedPastWhatWasReadVouchesForNothingOlder() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store(retention: 2)
        let lamp = Fixtures.product("Lamp")
        _ = try await store.insert(.product(lamp))
        let made = try store.latestSequence()
        // Another writer's commits, pruned beyond `made` before this store reads the log.
        let other = try directory.store(retention: 2)
        for index in 0..<30 { _ = try await other.insert(.product(Fixtures.product("Filler \(index)"))) }
        #expect(try !store.store.unchanged([ItemAddress("products", lamp.id)], since: made))
        #expect(try store.store.unchanged([ItemAddress("products", lamp.id)], since: store.latestSequence()))
    }

    /// The reload after a commit reads the counters and the log's tail in one statement: the
    /// entries after a sequence, or nil when they are more than its limit or pruned past it.
    @Test(arguments: [
        ("the whole tail", 0, 10, 2 as Int?),
        ("after the first entry", 1, 10, 1),
        ("nothing after the newest", 2, 10, 0),
        ("more entries than the limit", 0, 1, nil),
        ("no tail read", -1, 10, nil),
    ])
    func theReloadReadsTheCountersAndTheTailInOneStatement(case: String, after offset: Int64, limit: Int, entries: Int?) async throws {
        let directory = try TemporaryDirectory()
        let (store, lamp, chair, made) = try await Self.lampAndChair(directory)
        let catalog = store.store.catalog
        let tail = offset < 0 ? nil : (after: made - 2 + offset, limit: limit)
        let (state, changes) = try store.store.readStatement { source in
            try StoreState.read(source, catalog: catalog, latestSQL: CatalogStore.latestSQL, tail: tail)
        }
        #expect(state.latest == made, "\(`case`)")
        #expect(state.versions["products"] == made)
        #expect(state.versions["people"] == 0, "a collection never written")
        #expect(changes?.count == entries, "\(`case`)")
        if entries == 2 { #expect(changes?.map(\.item.id) == [lamp.id, chair.id]) }
    }

    @Test func aTailPrunedPastItsStartIsNil() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store(retention: 2)
        for index in 0..<30 { _ = try await store.insert(.product(Fixtures.product("Filler \(index)"))) }
        let catalog = store.store.catalog
        let (state, changes) = try store.store.readStatement { source in
            try StoreState.read(source, catalog: catalog, latestSQL: CatalogStore.latestSQL, tail: (after: 1, limit: 100))
        }
        #expect(state.prunedThrough > 1)
        #expect(changes == nil)
    }
}
