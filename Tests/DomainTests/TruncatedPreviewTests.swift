import DemoData
import Foundation
import Testing

@testable import Domain

@Suite("Truncated previews")
struct TruncatedPreviewTests {
    static let ellipsis = "\u{2026}"

    @Test(
        "text is trimmed, cut by characters, and marked with an ellipsis when longer",
        arguments: [
            ("Hello", 5, "Hello"),
            ("Hello!", 5, "Hello\u{2026}"),
            ("  Hello  \n", 5, "Hello"),
            ("\n\tHello world\n", 6, "Hello \u{2026}"),
            ("abc", 0, "\u{2026}"),
            ("abc", -2, "\u{2026}"),
            // Emoji: skin tones, ZWJ families and flags are single characters.
            ("👩🏽‍💻👨‍👩‍👧‍👦🇯🇵🇫🇷", 2, "👩🏽‍💻👨‍👩‍👧‍👦\u{2026}"),
            ("👩🏽‍💻👨‍👩‍👧‍👦🇯🇵", 3, "👩🏽‍💻👨‍👩‍👧‍👦🇯🇵"),
            // Combining marks stay on their letter.
            ("Cafe\u{301} cre\u{300}me", 4, "Cafe\u{301}\u{2026}"),
            ("e\u{301}e\u{301}e\u{301}", 2, "e\u{301}e\u{301}\u{2026}"),
            // CJK and Hangul.
            ("東京の新しいオフィス", 3, "東京の\u{2026}"),
            ("한국어 문서", 3, "한국어\u{2026}"),
            ("\r\nline\r\n", 4, "line"),
        ]
    )
    func cuts(text: String, limit: Int, expected: String) {
        #expect(truncatedPreview(text, limit: limit) == expected)
    }

    @Test("blank text has no preview", arguments: ["", " ", "\n\n", " \t\r\n ", "\u{00A0}\u{2003}\u{3000}", "\u{2028}\u{2029}\u{0085}", "\u{200B}"])
    func blankIsNil(text: String) {
        #expect(truncatedPreview(text, limit: 48) == nil)
    }

    @Test("matches the seed's Foundation formula on generated texts")
    func matchesSeedFormula() {
        let dataset = DemoData(seed: 1).dataset()
        let texts = dataset.articles.map(\.markdown) + dataset.documents.map(\.body) + [" \u{301}abc ", "x\u{0600} "]
        for text in texts {
            for limit in [0, 1, 5, 48, 56, 500] {
                #expect(truncatedPreview(text, limit: limit) == Self.seedFormula(text, limit: limit), "\(text.debugDescription) @ \(limit)")
            }
        }
    }

    @Test("every whitespace scalar Foundation trims is trimmed, alone or around text")
    func trimsFoundationsWhitespace() {
        let whitespace = (UInt32(0)...0x10_FFFF).compactMap(Unicode.Scalar.init).filter { CharacterSet.whitespacesAndNewlines.contains($0) }
        #expect(whitespace.contains("\u{200B}"))  // Foundation's set is wider than Unicode White_Space
        for scalar in whitespace {
            let space = String(scalar)
            #expect(truncatedPreview(space + space, limit: 48) == nil, "U+\(String(scalar.value, radix: 16))")
            #expect(truncatedPreview(space + "a" + space, limit: 48) == "a", "U+\(String(scalar.value, radix: 16))")
        }
    }

    /// The seed's `details` with the lost ellipsis restored.
    static func seedFormula(_ text: String, limit: Int) -> String? {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !t.isEmpty else { return nil }
        return String(t.prefix(limit)) + (t.count > limit ? ellipsis : "")
    }
}
