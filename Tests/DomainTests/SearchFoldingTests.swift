import Testing

@testable import DemoData
@testable import Domain

@Suite("Search folding")
struct SearchFoldingTests {
    @Test(
        "names fold to lowercase ASCII where a Latin base exists",
        arguments: [
            ("José", "jose"), ("Zoë", "zoe"), ("François", "francois"), ("Søren", "soren"), ("Chloé", "chloe"),
            ("Łukasz", "lukasz"), ("Straße", "strasse"), ("Ødegaard", "odegaard"), ("Æsir", "aesir"), ("O'Brien", "o'brien"),
            ("Cafe\u{301}", "cafe"), ("東京", "東京"), ("ÉMILE", "emile"),
        ]
    )
    func folding(text: String, folded: String) {
        #expect(searchFolded(text) == folded)
    }
}

extension SearchFoldingTests {
    @Test("the fast Latin table folds exactly like the general path")
    func tableMatchesGeneralPath() {
        let samples = DemoVocabulary.givenNames + DemoVocabulary.familyNames + ["Ǆemal", "Ȁrvo", "ǅ", "ÿ", "Ĳssel", "Ŋ"]
        for text in samples {
            #expect(searchFolded(text) == LatinFolding.fold(text), "\(text)")
        }
        for value in UInt32(0)...0x36F {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a" + String(scalar) + "b"
            #expect(searchFolded(text) == LatinFolding.fold(text), "U+\(String(value, radix: 16))")
        }
    }
}
