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
    /// By scalars: the first one that is not whitespace decides, with no grapheme breaking (a
    /// `Character`'s whitespace is its first scalar's).
    public static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(\.properties.isWhitespace)
    }

    /// `isBlank` of UTF-8 bytes, without making a `String`: ASCII decides by the byte (nearly
    /// always the first one decides: a letter or a digit), and from the first non-ASCII byte on
    /// the rest is decoded scalar by scalar (a scalar's properties are a table lookup, which an
    /// ASCII title never pays). An ill-formed sequence reads as U+FFFD, as `String(decoding:)`
    /// repairs it and the row shows it: not blank.
    public static func isBlank(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for (offset, byte) in bytes.enumerated() {
            switch byte {
            case 0x09...0x0D, 0x20: continue
            case 0x80...: return isBlank(scalarsOf: UnsafeBufferPointer(rebasing: bytes[offset...]))
            default: return false
            }
        }
        return true
    }

    private static func isBlank(scalarsOf bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): if !scalar.properties.isWhitespace { return false }
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
