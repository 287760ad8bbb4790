import Foundation

/// `text` folded for search and sorting: lowercase, accents removed, Latin ligatures spelled out.
///
/// `José` → `jose`, `Søren` → `soren`, `Straße` → `strasse`, so a search for "jose" finds José
/// and sort order does not depend on how a name is accented. Letters without a Latin base (CJK,
/// Cyrillic…) are kept, lowercased. The demo generator uses the same folding for e-mail addresses.
public func searchFolded(_ text: String) -> String {
    var folded = String.UnicodeScalarView()
    for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
        if scalar.properties.generalCategory == .nonspacingMark { continue }
        if let replacement = foldedLetters[scalar] {
            folded.append(contentsOf: replacement.unicodeScalars)
        } else {
            folded.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
        }
    }
    return String(folded)
}

/// Latin letters that canonical decomposition leaves whole.
private let foldedLetters: [Unicode.Scalar: String] = [
    "ß": "ss", "ẞ": "ss", "Æ": "ae", "æ": "ae", "Œ": "oe", "œ": "oe", "Ø": "o", "ø": "o",
    "Đ": "d", "đ": "d", "Ð": "d", "ð": "d", "Ł": "l", "ł": "l", "Þ": "th", "þ": "th", "ı": "i",
]
