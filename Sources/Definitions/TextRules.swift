import Domain
import Foundation

/// What the text types require beyond length, for checking defaults and row images as writes
/// are checked (the same rules as Domain's item decoding).
enum TextRules {
    static func problem(_ text: String, type: FieldType) -> String? {
        switch type {
        case .email: emailProblem(text)
        case .phone: phoneProblem(text)
        case .image: isSymbolName(text) || isWebURL(text) ? nil : "must be an SF Symbols name (star.fill) or an http(s) URL"
        default: nil
        }
    }

    static func emailProblem(_ address: String) -> String? {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !address.contains(where: \.isWhitespace) else {
            return "is not an e-mail address: one @ with text on both sides, no whitespace"
        }
        return nil
    }

    static func phoneProblem(_ number: String) -> String? {
        var hasDigit = false
        for scalar in number.unicodeScalars {
            switch scalar {
            case "0"..."9": hasDigit = true
            case " ", "(", ")", "+", "-", ".": continue
            default: return "is not a phone number: digits, spaces and ( ) + - . only"
            }
        }
        return hasDigit ? nil : "is not a phone number: it has no digit"
    }

    /// `star.fill`: lowercase letters and digits in dot-separated words.
    static func isSymbolName(_ text: String) -> Bool {
        !text.isEmpty
            && text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { word in
                !word.isEmpty && word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            }
    }

    static func isWebURL(_ text: String) -> Bool {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host else { return false }
        return ["http", "https"].contains(scheme) && !host.isEmpty
    }
}
