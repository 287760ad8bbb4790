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

    @Test func aRowsTrigramsAreEachNamedOnce() {
        #expect(SearchGrams.trigramsJSON(["abcab", nil, "ab"]) == #"["abc","bca","cab"]"#)
        #expect(SearchGrams.trigramsJSON(["ab", nil]) == nil)
        #expect(SearchGrams.trigramsJSON(["a\"bc"]) == #"["a\"b","\"bc"]"#)
    }
}
