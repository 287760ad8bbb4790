/// What a field holds, and so how it is stored, validated, sorted, filtered and formatted.
public enum FieldType: Sendable, Hashable {
    /// One line of text (a name, a title).
    case text
    /// Text of any length, shown as written (a body, a description).
    case longText
    /// Markdown source: the detail gives the source, rows and cells its plain text.
    case markdown
    /// An e-mail address: one `@` with text on both sides, no whitespace.
    case email
    /// A phone number kept as entered: digits, spaces and `( ) + - .`, at least one digit.
    case phone
    /// An image: an SF Symbols name (`star.fill`) or an `http(s)` URL.
    case image
    /// Integer minor units of an ISO 4217 currency.
    case money
    case integer
    /// A decimal with exactly `scale` fraction digits (0…6), kept as an integer scaled by 10^scale.
    case decimal(scale: Int)
    case boolean
    /// A calendar date, `YYYY-MM-DD`.
    case date
    /// An instant, RFC 3339 in UTC with milliseconds; formatted in UTC (the server knows no client time zone).
    case dateTime
    /// One of the declared values; rows show its label in the request's locale. Sorted in declaration order.
    case enumeration([EnumCase])
    /// The id of an item of another collection (by name); rows show that item's title.
    case reference(collection: String)
    /// A list of numbers, formatted with `fractionDigits` digits.
    case numbers(fractionDigits: Int)
    /// A list of names, each with a server-assigned id of `kind` (a track's channels).
    case names(kind: EntityKind)

    /// The name a definition uses for the type.
    public var name: String {
        switch self {
        case .text: "text"
        case .longText: "longText"
        case .markdown: "markdown"
        case .email: "email"
        case .phone: "phone"
        case .image: "image"
        case .money: "money"
        case .integer: "integer"
        case .decimal: "decimal"
        case .boolean: "boolean"
        case .date: "date"
        case .dateTime: "dateTime"
        case .enumeration: "enum"
        case .reference: "reference"
        case .numbers: "numbers"
        case .names: "names"
        }
    }

    /// Every type name a definition may use.
    public static let names = [
        "text", "longText", "markdown", "email", "phone", "image", "money", "integer", "decimal", "boolean", "date", "dateTime", "enum",
        "reference", "numbers", "names",
    ]

    /// Types whose value is a string of text (lengths and patterns apply).
    public var isText: Bool {
        switch self {
        case .text, .longText, .markdown, .email, .phone, .image: true
        default: false
        }
    }

    /// Text shown exactly as written (no formatting, no markup to strip).
    public var isPlainText: Bool {
        switch self {
        case .text, .longText, .email, .phone, .image: true
        default: false
        }
    }

    /// Types whose cells align on their digits.
    public var isNumeric: Bool {
        switch self {
        case .money, .integer, .decimal, .numbers: true
        default: false
        }
    }

    /// The cases of an enum type; empty for the others.
    public var enumCases: [EnumCase] {
        if case .enumeration(let cases) = self { return cases }
        return []
    }

    /// The collection a reference points to.
    public var referencedCollection: String? {
        if case .reference(let collection) = self { return collection }
        return nil
    }
}

/// A value of an enum field and its label.
public struct EnumCase: Sendable, Hashable {
    public var value: String
    public var label: LocalizedText

    public init(value: String, label: LocalizedText) {
        self.value = value
        self.label = label
    }
}
