import Foundation
import Testing

@testable import Storage

/// The trigrams a write records for one- and two-character searches, as the JSON array its
/// statement reads with `json_each`.
@Suite struct SearchGramsTests {
    @Test(arguments: [
        ["abc"],
        ["a\"b", "c\\d", "e/f"],
        ["\n\t\u{1}", "x\u{1F}y", "\u{7F}z"],
        ["día", "日本語", "🙂ab"],
        ["", " "],
    ])
    func theArrayReadsBackAsTheTexts(texts: [String]) throws {
        let json = SearchGrams.jsonArray(texts)
        let decoded = try JSONDecoder().decode([String].self, from: Data(json.utf8))
        #expect(decoded == texts, "\(json)")
    }

    @Test func aBatchNamesEachTrigramOnce() {
        let table = CatalogTable(StoredCollection.products.definition)
        var batch = GramBatch(table: table, known: .init())
        batch.add(title: "abcab", subtitle: nil)
        batch.add(title: "ab", subtitle: nil)
        #expect(batch.trigrams == ["abc", "bca", "cab"])
        #expect(SearchGrams.jsonArray(batch.trigrams) == #"["abc","bca","cab"]"#)
        var short = GramBatch(table: table, known: .init())
        short.add(title: "ab", subtitle: nil)
        #expect(short.trigrams.isEmpty)
        var quoted = GramBatch(table: table, known: .init())
        quoted.add(title: "a\"bc", subtitle: nil)
        #expect(SearchGrams.jsonArray(quoted.trigrams) == #"["a\"b","\"bc"]"#)
    }
}
