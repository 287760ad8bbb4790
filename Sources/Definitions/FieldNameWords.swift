/// A field name read as words, for a label the definition does not give: `unitPrice` →
/// "Unit price", `emailURL` → "Email URL", `assigneeID` → "Assignee ID", `address2` →
/// "Address 2".
///
/// Column titles, the OpenAPI document's property titles and filter descriptions show labels;
/// a raw `unitPrice` there reads as a leftover of the code, not as a title (sentence case, as
/// the platforms' own column titles are).
enum FieldNameWords {
    /// Words written in capitals wherever they appear, though names write them in lower case
    /// (`userId`, `skuCode`, `urlPath`), by their lower-case form.
    static let acronyms: [String: String] = {
        var written: [String: String] = [:]
        for word in [
            "api", "ean", "gps", "html", "http", "https", "iban", "id", "ip", "isbn", "iso", "json", "pdf", "sku", "sms", "uri", "url", "utc", "uuid",
            "vat",
        ] {
            written[word] = word.uppercased()
            written[word + "s"] = word.uppercased() + "s"
        }
        return written
    }()

    /// The label of the field called `name` (an identifier: ASCII letters and digits).
    static func label(for name: String) -> String {
        let words = split(name).map { word in
            if let acronym = acronyms[word.lowercased()] { return acronym }
            return word.count > 1 && word.allSatisfy(\.isUppercase) ? word : word.lowercased()
        }
        guard let first = words.first else { return name }
        return ([first.prefix(1).uppercased() + first.dropFirst()] + words.dropFirst()).joined(separator: " ")
    }

    /// The words of a camel-case name: a capital starts a word, a run of capitals is one word
    /// (its last capital starts the next word when a lower-case letter follows: `URLPath`), and
    /// digits are a word of their own, with the lower-case letters after them (`2fa`).
    static func split(_ name: String) -> [String] {
        let characters = Array(name)
        var words: [String] = []
        var current = ""
        for (index, character) in characters.enumerated() {
            if let previous = current.last {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let startsWord =
                    if character.isNumber {
                        !previous.isNumber
                    } else if character.isUppercase {
                        !previous.isUppercase || (next?.isLowercase ?? false)
                    } else {
                        false
                    }
                if startsWord {
                    words.append(current)
                    current = ""
                }
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
