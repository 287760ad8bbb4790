import Domain
import Testing

/// Lists joined as each locale writes them (CLDR's "standard" and "or" patterns).
@Suite("Lists in the request's language")
struct ListJoiningTests {
    static let cases: [(ListJoining, RenderLocale, [String], String)] = [
        (.and, .enUS, [], ""),
        (.and, .enUS, ["A"], "A"),
        (.and, .enUS, ["A", "B"], "A and B"),
        (.and, .enUS, ["A", "B", "C"], "A, B, and C"),
        (.and, .enGB, ["A", "B", "C"], "A, B and C"),
        (.and, .deDE, ["A", "B", "C"], "A, B und C"),
        (.and, .frFR, ["A", "B"], "A et B"),
        (.and, .jaJP, ["A", "B", "C"], "A、B、C"),
        (.or, .enUS, ["A", "B"], "A or B"),
        (.or, .enUS, ["A", "B", "C"], "A, B, or C"),
        (.or, .enGB, ["A", "B", "C"], "A, B or C"),
        (.or, .deDE, ["A", "B"], "A oder B"),
        (.or, .frFR, ["A", "B", "C"], "A, B ou C"),
        (.or, .jaJP, ["A", "B"], "AまたはB"),
        (.or, .jaJP, ["A", "B", "C"], "A、B、またはC"),
    ]

    @Test(arguments: cases)
    func joinsAsTheLocaleWritesAList(joining: ListJoining, locale: RenderLocale, items: [String], joined: String) {
        #expect(joining.join(items, in: locale) == joined)
    }
}
