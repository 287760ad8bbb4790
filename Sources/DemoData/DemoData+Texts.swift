import Domain

extension DemoData {
    /// Articles with Markdown of varied length; some blank, some with emoji, CJK or combining marks.
    func makeArticles(count: Int) -> [Article] {
        var random = random(.articles)
        return (0..<max(count, 0)).map { index in
            let id = Self.id(.article, index: index, using: &random)
            let headline = random.pick(DemoVocabulary.headlineOpeners) + " " + random.pick(DemoVocabulary.headlineTopics)
            var markdown = Self.body(index: index, using: &random)
            if !markdown.allSatisfy(\.isWhitespace) { markdown = "# \(headline)\n\n" + markdown + "\n\n- [x] Reviewed" }
            return Article(id: id, headline: headline, markdown: markdown)
        }
    }

    /// Documents with plain bodies of varied length; some blank, some with emoji, CJK or combining marks.
    func makeDocuments(count: Int) -> [Document] {
        var random = random(.documents)
        return (0..<max(count, 0)).map { index in
            let id = Self.id(.document, index: index, using: &random)
            let title = random.pick(DemoVocabulary.headlineTopics) + " \u{2014} Notes " + String(index + 1)
            return Document(id: id, title: title, body: Self.body(index: index, using: &random))
        }
    }

    /// A body whose kind cycles with `index` so every dataset has each kind: empty, blank,
    /// short (under the preview limit), Unicode-heavy, or one to six sentences.
    static func body(index: Int, using random: inout SeededRandom) -> String {
        switch index % 10 {
        case 3: return ""
        case 7: return random.pick([" ", "\n\n", " \t\n ", "\u{00A0}\u{2003}\r\n"])
        case 5: return "  " + random.pick(DemoVocabulary.unicodeSentences) + "  "
        case 9: return random.pick(["Short note.", "Done.", "See attached.", "✅ Approved"])
        default:
            let sentences = (0..<random.next(in: 1...6)).map { _ in random.pick(DemoVocabulary.sentences) }
            return sentences.joined(separator: random.chance(30) ? "\n" : " ")
        }
    }
}
