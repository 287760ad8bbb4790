import Domain
import GRDB
import Testing

@testable import Storage

/// The writer sends only the search grams it does not know the file to hold, and forgets what
/// it knows when someone else commits.
@Suite struct KnownGramsTests {
    private static func scalars(_ text: String) -> ArraySlice<Unicode.Scalar> { ArraySlice(text.unicodeScalars) }

    @Test(arguments: [
        ("abc", true), ("日本語", true), ("🙂ab", true), ("\u{10FFFF}\u{10FFFF}\u{10FFFF}", true), ("abcd", false), ("ab", false), ("abcde", false),
    ])
    func aGramHasAKeyWhenItFitsIn64Bits(gram: String, hasKey: Bool) {
        #expect((KnownGrams.key(Self.scalars(gram)) != nil) == hasKey)
    }

    @Test func keysOfDifferentGramsDiffer() {
        let grams = ["abc", "abd", "bac", "a\u{0}c", "\u{10FFFF}\u{10FFFF}\u{10FFFF}", "\u{10FFFF}\u{10FFFE}\u{10FFFF}", "🙂ab", "ab🙂"]
        let keys = grams.compactMap { KnownGrams.key(Self.scalars($0)) }
        #expect(Set(keys).count == grams.count)
    }

    /// Brute force: every distinct gram of the texts, less those known, in the order first met.
    private static func expected(_ texts: [String], sizes: [Int], known: Set<String>) -> [String] {
        var seen = known
        return texts.flatMap { SearchGrams.grams(of: $0, sizes: sizes) }.filter { seen.insert($0).inserted }
    }

    @Test(arguments: [
        (["lamp two", "blue lamp"], ["lamp"]),
        (["abcabc", "cab"], []),
        (["día del 🙂 sol", "x🙂yz🙂"], ["del", "🙂 s"]),
        (["ab", "a"], ["abc"]),
    ])
    func aBatchSendsTheGramsItsTextsHoldThatAreNotKnown(texts: [String], knownTexts: [String]) throws {
        let table = CatalogTable(StoredCollection.products.definition)
        var known = KnownGrams.Sets()
        var knownTrigrams = Set<String>()
        for text in knownTexts {
            for gram in SearchGrams.grams(of: text, sizes: [3]) {
                known.trigrams.insert(try #require(KnownGrams.key(Self.scalars(gram))))
                knownTrigrams.insert(gram)
            }
        }
        var batch = GramBatch(table: table, known: known)
        for (index, text) in texts.enumerated() {
            batch.add(title: text, subtitle: index.isMultiple(of: 2) ? String(text.reversed()) : nil)
        }
        let titlesAndSubtitles = texts.enumerated().flatMap { index, text in index.isMultiple(of: 2) ? [text, String(text.reversed())] : [text] }
        #expect(batch.trigrams == Self.expected(titlesAndSubtitles, sizes: [3], known: knownTrigrams))
        #expect(batch.recorded.trigrams.count == batch.trigrams.count)
    }

    @Test func whatIsKnownLastsOnlyWhileTheWriterMakesEveryCommit() {
        var known = KnownGrams()
        var learned = KnownGrams.Sets()
        learned.trigrams.insert(1)
        known.begin(at: 5)
        known.commit(["items_products": learned], startedAt: 5)
        known.begin(at: 6)
        #expect(known.tables["items_products"]?.trigrams == [1])
        known.begin(at: 6)
        #expect(known.tables["items_products"]?.trigrams == [1], "a transaction that rolled back committed nothing")
        known.begin(at: 8)
        #expect(known.tables.isEmpty)
    }

    /// A restore replaces the grams map with a backup's, which may lack grams the writer had
    /// recorded: the next write must record its grams again, or a short search misses its row.
    @Test func aWriteRecordsItsGramsAgainAfterAnotherCommitReplacedTheMap() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        _ = try await store.insert(.product(Fixtures.product("Lamp one")))
        _ = try await store.insert(.product(Fixtures.product("Lamp three")))
        let queue = try DatabaseQueue(path: directory.path("test.sqlite"))
        try await queue.write { db in try db.execute(sql: "DELETE FROM items_products_grams") }
        let two = Fixtures.product("Lamp two")
        _ = try await store.insert(.product(two))
        try store.store.applySearchBacklog()
        let recorded = try await queue.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM items_products_grams WHERE trigram = 'lam'")
        }
        #expect(recorded == 5, "l, a, m, la, am")
        let found = try store.walk(ListQuery(collection: .products, search: "la")).map(\.item.id)
        #expect(found.contains(two.id))
    }
}
