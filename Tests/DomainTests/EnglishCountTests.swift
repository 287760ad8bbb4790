import Domain
import Testing

@Suite("English counts")
struct EnglishCountTests {
    static let cases: [(Int, String, String?, String)] = [
        (0, "digit", nil, "0 digits"),
        (1, "digit", nil, "1 digit"),
        (2, "digit", nil, "2 digits"),
        (-1, "day", nil, "-1 day"),
        (1, "entry", "entries", "1 entry"),
        (3, "entry", "entries", "3 entries"),
        (1_000, "character", nil, "1000 characters"),
    ]

    @Test(arguments: cases)
    func theNounIsSingularOnlyForOne(count: Int, noun: String, plural: String?, expected: String) {
        #expect(EnglishCount.of(count, noun, plural: plural) == expected)
    }
}
