import Foundation

/// `text` folded for search and sorting: lowercase, accents removed, Latin ligatures spelled out.
///
/// `José` → `jose`, `Søren` → `soren`, `Straße` → `strasse`, so a search for "jose" finds José
/// and sort order does not depend on how a name is accented. Letters without a Latin base (CJK,
/// Cyrillic…) are kept, lowercased. The demo generator uses the same folding for e-mail addresses.
///
/// ASCII and Latin letters (up to U+024F, plus combining accents) fold from a table built once;
/// only text with other scripts goes through Foundation's canonical decomposition, which costs
/// microseconds per call.
public func searchFolded(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
    var folded = ""
    folded.unicodeScalars.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0x41...0x5A: folded.unicodeScalars.append(Unicode.Scalar(UInt8(scalar.value) | 0x20))
        case 0...0x7F: folded.unicodeScalars.append(scalar)
        case 0x300...0x36F: continue  // Combining Diacritical Marks: all nonspacing
        case LatinFolding.range: folded += LatinFolding.table[Int(scalar.value) - Int(LatinFolding.range.lowerBound)]
        default: return LatinFolding.fold(text)
        }
    }
    return folded
}

/// The folding table for Latin-1 Supplement and Latin Extended-A/B, and the general slow path.
enum LatinFolding {
    static let range: ClosedRange<UInt32> = 0x80...0x24F

    static let table: [String] = range.map { value in
        Unicode.Scalar(value).map { fold(String($0)) } ?? ""
    }

    /// Canonical decomposition, nonspacing marks dropped, special letters spelled out, lowercased.
    static func fold(_ text: String) -> String {
        var folded = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            if let replacement = letters[scalar] {
                folded.append(contentsOf: replacement.unicodeScalars)
            } else {
                folded.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
        }
        return String(folded)
    }

    /// Latin letters that canonical decomposition leaves whole.
    private static let letters: [Unicode.Scalar: String] = [
        "ß": "ss", "ẞ": "ss", "Æ": "ae", "æ": "ae", "Œ": "oe", "œ": "oe", "Ø": "o", "ø": "o",
        "Đ": "d", "đ": "d", "Ð": "d", "ð": "d", "Ł": "l", "ł": "l", "Þ": "th", "þ": "th", "ı": "i",
    ]
}
