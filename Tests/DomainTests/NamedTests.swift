import Testing

@testable import Domain

@Suite("Named conformances")
struct NamedTests {
    static let exactly48 = String(repeating: "a", count: 48)
    static let exactly56 = String(repeating: "d", count: 56)
    // 60 family emoji (each 7 scalars) — any scalar-based cut would split one.
    static let families = String(repeating: "👨‍👩‍👧‍👦", count: 60)
    static let accents = String(repeating: "e\u{301}", count: 60)
    static let kanji = String(repeating: "漢", count: 60)

    @Test(
        "an article's name is its headline and its details the Markdown cut at 48",
        arguments: [
            ("", nil),
            ("   \n\t ", nil),
            ("Short", "Short"),
            (exactly48, exactly48),
            (exactly48 + "b", exactly48 + "\u{2026}"),
            ("  " + exactly48 + "  \n", exactly48),
            (families, String(repeating: "👨‍👩‍👧‍👦", count: 48) + "\u{2026}"),
            (accents, String(repeating: "e\u{301}", count: 48) + "\u{2026}"),
            (kanji, String(repeating: "漢", count: 48) + "\u{2026}"),
        ] as [(String, String?)]
    )
    func articleDetails(markdown: String, expected: String?) {
        let article = Article(id: Fixtures.id(.article, 1), headline: "Headline", markdown: markdown)
        #expect(article.name == "Headline")
        #expect(article.details == expected)
    }

    @Test(
        "a document's name is its title and its details the body cut at 56",
        arguments: [
            ("", nil),
            ("\r\n\u{00A0}", nil),
            (exactly56, exactly56),
            (exactly56 + "x", exactly56 + "\u{2026}"),
            (families, String(repeating: "👨‍👩‍👧‍👦", count: 56) + "\u{2026}"),
            (accents, String(repeating: "e\u{301}", count: 56) + "\u{2026}"),
            (kanji, String(repeating: "漢", count: 56) + "\u{2026}"),
        ] as [(String, String?)]
    )
    func documentDetails(body: String, expected: String?) {
        let document = Document(id: Fixtures.id(.document, 1), title: "Title", body: body)
        #expect(document.name == "Title")
        #expect(document.details == expected)
    }

    @Test("articles and documents are NamedValues that render the seed's NamedRow")
    func namedRows() {
        func row<Model: NamedValue & RowRepresentable>(_ model: Model) -> RenderRow { model.row(in: Fixtures.enUS) }
        let article = Article(id: Fixtures.id(.article, 2), headline: "Notes on Sorting", markdown: "  Lists are where most apps spend their time.  ")
        let blank = Document(id: Fixtures.id(.document, 3), title: "Empty", body: " \n ")
        #expect(row(article) == RenderRow(id: article.id, title: "Notes on Sorting", subtitle: "Lists are where most apps spend their time."))
        #expect(row(blank) == RenderRow(id: blank.id, title: "Empty", subtitle: nil, trailing: nil, image: nil))
    }
}
