/// What a row's title shows when the values it is made of make none: an optional field left
/// empty (`row: {title: nickname}`), or a template of such fields (`"{givenName} {familyName}"`
/// with both empty). A row whose title is `""` is a line a person cannot read or tap by name.
extension ItemRenderer {
    /// The collection's `row.placeholder` in the locale, else "Untitled" in its language.
    public func untitled(in context: RenderContext) -> String {
        collection.row.placeholder?[context.locale] ?? Self.untitledLabel(context.locale)
    }

    static func untitledLabel(_ locale: RenderLocale) -> String {
        switch locale.language {
        case "de": "Ohne Titel"
        case "fr": "Sans titre"
        case "ja": "名称未設定"
        default: "Untitled"
        }
    }

    /// Whether a title shows nothing a person can read: empty or only whitespace, as a required
    /// text may not be (`FieldReader.text`).
    public static func isBlank(_ text: String) -> Bool {
        text.allSatisfy(\.isWhitespace)
    }

    /// `isBlank` of UTF-8 bytes, without making a `String` when an ASCII letter or digit decides
    /// it (nearly every title's first byte). Ill-formed bytes are read as `String(decoding:)`
    /// repairs them, as the row shows them.
    public static func isBlank(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes {
            switch byte {
            case 0x09...0x0D, 0x20: continue
            case 0x80...: return isBlank(String(decoding: bytes, as: UTF8.self))
            default: return false
            }
        }
        return true
    }
}
