/// What a written item must satisfy; a request that breaks any rule is answered 422
/// `VALIDATION_FAILED` with one `{pointer, detail}` per failing field, and nothing is written.
///
/// | collection | field | rule |
/// |---|---|---|
/// | all | `id` | absent on POST (the server assigns it); on PATCH it must stay the item's id |
/// | all | any text | a string; no NUL (U+0000); lengths count `Character`s (grapheme clusters) |
/// | all | (other) | unknown fields are refused, so typos surface; derived fields (`links`, `fullName`, `preview`, `department`, `price.formatted`) are read-only |
/// | products | `name` | required, 1…200, not blank |
/// | products | `shortDescription` | optional (default `""`), ≤ 500 |
/// | products | `longDescription` | optional (default `""`), ≤ 10,000 |
/// | products | `price` | required object `{minorUnits, currency}` |
/// | products | `price.minorUnits` | required whole number 0…10^15 (minor units: cents for USD) |
/// | products | `price.currency` | required ISO 4217 code known to the server, uppercase (`USD`, `JPY`) |
/// | departments | `name` | required, 1…100, not blank |
/// | people | `givenName`, `familyName` | required, 1…100 each, not blank |
/// | people | `emailAddress` | required, ≤ 254, exactly one `@` with text on both sides, no whitespace |
/// | people | `phoneNumber` | required, 1…40 of digits, spaces and `( ) + - .`, at least one digit |
/// | people | `departmentID` | required id (`dep_…`) of an existing department |
/// | articles | `headline` | required, 1…200, not blank |
/// | articles | `markdown` | optional (default `""`), ≤ 100,000 |
/// | documents | `title` | required, 1…200, not blank |
/// | documents | `body` | optional (default `""`), ≤ 100,000 |
/// | tracks | `title` | required, 1…200, not blank |
/// | tracks | `channels` | required array of 1…16 `{name, id}` |
/// | tracks | `channels[i].name` | required, 1…50, not blank |
/// | tracks | `channels[i].id` | absent on POST and for channels appended by PATCH; on PATCH the channels already there keep their ids at their positions (sample levels are stored by channel position), trailing ones may be dropped |
///
/// "Not blank" means not only whitespace (Unicode White_Space); text is stored as sent, untrimmed.
/// `null` counts as absent, as in a merge patch. Where a whole number is expected, any JSON
/// number whose value is whole counts (`12`, `12.0`, `1.2e1`); `12.5`, `"12"` and numbers
/// outside Int64 are refused.
enum ValidationLimits {
    static let productName = TextRule(maxCharacters: 200, required: true)
    static let shortDescription = TextRule(maxCharacters: 500, required: false)
    static let longDescription = TextRule(maxCharacters: 10_000, required: false)
    static let minorUnits: ClosedRange<Int64> = 0...1_000_000_000_000_000
    static let currencyCode = TextRule(maxCharacters: 3, required: true)

    static let departmentName = TextRule(maxCharacters: 100, required: true)

    static let personName = TextRule(maxCharacters: 100, required: true)
    static let emailAddress = TextRule(maxCharacters: 254, required: true)
    static let phoneNumber = TextRule(maxCharacters: 40, required: true)
    static let entityID = TextRule(maxCharacters: 20, required: true)

    static let headline = TextRule(maxCharacters: 200, required: true)
    static let markdown = TextRule(maxCharacters: 100_000, required: false)

    static let documentTitle = TextRule(maxCharacters: 200, required: true)
    static let documentBody = TextRule(maxCharacters: 100_000, required: false)

    static let trackTitle = TextRule(maxCharacters: 200, required: true)
    static let channelCount = 1...16
    static let channelName = TextRule(maxCharacters: 50, required: true)
}

/// A text field's limits: at most `maxCharacters` characters and, when `required`, present
/// and not blank.
struct TextRule: Sendable {
    var maxCharacters: Int
    var required: Bool
}
