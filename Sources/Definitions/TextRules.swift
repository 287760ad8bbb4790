import Domain

/// Domain's rules of the text types (those writes are checked by), in the definition checker's
/// words: for a default or a row image, checked as a write would be.
extension TextRules {
    static func problem(_ text: String, type: FieldType) -> String? {
        switch type {
        case .email: emailProblem(text).map { _ in "is not an e-mail address: one @ with text on both sides, no whitespace" }
        case .phone:
            phoneProblem(text).map { _ in
                text.unicodeScalars.allSatisfy(isPhoneScalar)
                    ? "is not a phone number: it has no digit" : "is not a phone number: digits, spaces and ( ) + - . only"
            }
        case .image: isSymbolName(text) || isWebURL(text) ? nil : "must be an SF Symbols name (star.fill) or an http(s) URL"
        default: nil
        }
    }
}
