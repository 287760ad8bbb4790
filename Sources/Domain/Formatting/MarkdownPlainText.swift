/// The plain text of Markdown source, as a row or cell shows it: what a reader sees, without the
/// markup (issue: "Markdown previews from the plain text, not the markup").
///
/// Line by line: ATX heading marks, block quotes, list markers, fences and thematic breaks go;
/// inline, emphasis and code marks go, links and images keep their text; backslash escapes
/// keep the escaped character. Lines are joined by one space, so a preview reads as one line.
/// Not a full CommonMark parser: what it does not recognise stays as written, never lost.
public enum MarkdownPlainText {
    public static func plainText(of markdown: String) -> String {
        var lines: [String] = []
        for rawLine in markdown.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let block = blockContent(Substring(rawLine))
            let text = inlineText(block).trimmingSpaces()
            if !text.isEmpty { lines.append(text) }
        }
        return lines.joined(separator: " ")
    }

    /// The line without its block markers: `#`, `>`, `-`/`*`/`+`, `1.`; nil content for fences and rules.
    static func blockContent(_ line: Substring) -> Substring {
        var rest = line.drop { $0 == " " || $0 == "\t" }
        while rest.first == ">" { rest = rest.dropFirst().drop { $0 == " " } }
        if rest.hasPrefix("```") || rest.hasPrefix("~~~") { return "" }
        let compact = rest.filter { $0 != " " }
        if compact.count >= 3, let mark = compact.first, "-*_".contains(mark), compact.allSatisfy({ $0 == mark }) { return "" }
        if rest.first == "#" {
            let hashes = rest.prefix { $0 == "#" }
            let after = rest.dropFirst(hashes.count)
            if hashes.count <= 6, after.isEmpty || after.first == " " {
                return Substring(after.drop { $0 == " " }.trimmingTrailing { $0 == "#" || $0 == " " })
            }
        }
        if let mark = rest.first, "-*+".contains(mark), rest.dropFirst().first == " " { return rest.dropFirst(2) }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, digits.count <= 9 {
            let after = rest.dropFirst(digits.count)
            if let mark = after.first, mark == "." || mark == ")", after.dropFirst().first == " " { return after.dropFirst(2) }
        }
        return rest
    }

    /// Emphasis, code and link marks removed: `**a** [b](u) ![c](i) `d`` → `a b c d`.
    static func inlineText(_ line: Substring) -> String {
        var output = ""
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            let next = line.index(after: index)
            switch character {
            case "\\" where next < line.endIndex && line[next].isPunctuationOrSymbol:
                output.append(line[next])
                index = line.index(after: next)
            case "*", "`":
                index = next
            case "~" where next < line.endIndex && line[next] == "~":
                index = line.index(after: next)
            case "_":
                // snake_case keeps its underscore: only marks at a word's edge are emphasis.
                let inWord =
                    index > line.startIndex && line[line.index(before: index)].isLetterOrNumber
                    && next < line.endIndex && line[next].isLetterOrNumber
                if inWord { output.append(character) }
                index = next
            case "!" where next < line.endIndex && line[next] == "[":
                index = next
            case "[":
                if let close = line[next...].firstIndex(of: "]") {
                    output += inlineText(line[next..<close])
                    var after = line.index(after: close)
                    if after < line.endIndex, line[after] == "(", let end = line[after...].firstIndex(of: ")") {
                        after = line.index(after: end)
                    }
                    index = after
                } else {
                    output.append(character)
                    index = next
                }
            case "<":
                // An autolink keeps its address; an HTML tag goes; anything else is a less-than sign.
                guard let close = line[next...].firstIndex(of: ">"), let first = line[next..<close].first else {
                    output.append(character)
                    index = next
                    continue
                }
                let inner = line[next..<close]
                if inner.contains(":") || inner.contains("@") {
                    output += inner
                    index = line.index(after: close)
                } else if first.isLetter || first == "/" {
                    index = line.index(after: close)
                } else {
                    output.append(character)
                    index = next
                }
            default:
                output.append(character)
                index = next
            }
        }
        return output
    }
}

extension Character {
    fileprivate var isPunctuationOrSymbol: Bool { isPunctuation || isSymbol }
    fileprivate var isLetterOrNumber: Bool { isLetter || isNumber }
}

extension Substring {
    fileprivate func trimmingTrailing(_ drop: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, drop(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map(index(after:)) ?? start
        return start < end ? String(self[start..<end]) : ""
    }
}
