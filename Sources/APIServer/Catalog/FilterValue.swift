import Domain
import HTTPServer
import Storage

/// A filter parameter's text as a value of its field's type; malformed text is a 400
/// `INVALID_FILTER` that says what the filter takes.
///
/// | type | text |
/// |---|---|
/// | text, email, phone, image | as is (1…500 characters) |
/// | enum | one of the declared values |
/// | reference | an id of the referenced collection |
/// | integer | `-12` |
/// | decimal | `12.5` (at most the field's fraction digits) |
/// | boolean | `true` or `false` |
/// | date | `2026-11-24` |
/// | dateTime | RFC 3339, `2026-11-24T17:00:00Z` |
/// | money | `USD:100.00`: a currency and an amount in major units; compared within that currency, which must be one the field allows |
///
/// `oneOf` takes up to 50 such values separated by commas.
enum FilterValue {
    static let maxValues = 50

    static func condition(_ filter: FilterDefinition, _ text: String, in collection: CollectionDefinition, catalog: Catalog) throws(HTTPError)
        -> FieldCondition
    {
        let field = collection.fields[filter.field]
        let parts = filter.operation == .oneOf ? text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) : [text]
        guard parts.count <= maxValues else {
            throw .badRequest("INVALID_FILTER", "\(filter.name) takes at most \(EnglishCount.of(maxValues, "value")).", parameter: filter.name)
        }
        var values: [FieldValue] = []
        for part in parts {
            guard let value = parse(part, type: field.type, catalog: catalog) else {
                throw .badRequest("INVALID_FILTER", "\(filter.name) must be \(expected(field.type)).", parameter: filter.name)
            }
            // No item holds another currency, so such a filter could only ever answer an empty
            // list; saying so beats an empty 200 that looks like "nothing matched".
            if case .money(let money) = value, let allowed = field.rules.currencies, !allowed.contains(money.currency) {
                let example = allowed.first.flatMap(Currency.init(code:)).map { " (\($0.code):100" + ($0.minorUnitDigits > 0 ? ".00)" : ")") } ?? ""
                let detail =
                    "\(filter.name) takes an amount in \(allowed.joined(separator: ", "))\(example); \(field.name) holds no \(money.currency)."
                throw .badRequest("INVALID_FILTER", detail, parameter: filter.name)
            }
            values.append(value)
        }
        return FieldCondition(field: filter.field, operation: filter.operation, values: values)
    }

    static func parse(_ text: String, type: FieldType, catalog: Catalog) -> FieldValue? {
        switch type {
        case .text, .longText, .markdown, .email, .phone, .image:
            return (1...500).contains(text.count) ? .text(text) : nil
        case .enumeration(let cases):
            return cases.contains { $0.value == text } ? .text(text) : nil
        case .reference(let target):
            guard let kind = catalog.collection(named: target)?.kind else { return nil }
            return EntityID(parsing: text, kind: kind).map(FieldValue.reference)
        case .integer:
            return integer(text).map(FieldValue.integer)
        case .decimal(let scale):
            return DecimalText.scaled(text, digits: scale).map(FieldValue.integer)
        case .boolean:
            switch text {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            default: return nil
            }
        case .date:
            return DateText.date(text) != nil ? .text(text) : nil
        case .dateTime:
            return DateText.instant(text).map(FieldValue.integer)
        case .money:
            let pair = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, let currency = Currency(code: String(pair[0])),
                let minor = DecimalText.scaled(String(pair[1]), digits: currency.minorUnitDigits)
            else { return nil }
            return .money(Money(minorUnits: minor, currency: currency.code))
        case .numbers, .names:
            return nil
        }
    }

    /// What a filter of `type` takes, for the 400's detail.
    static func expected(_ type: FieldType) -> String {
        switch type {
        case .enumeration(let cases): "one of " + cases.map(\.value).joined(separator: ", ")
        case .reference(let collection): "an id of \(collection)"
        case .integer: "a whole number"
        case .decimal(let scale): scale == 0 ? "a whole number" : "a number with at most \(EnglishCount.of(scale, "fraction digit"))"
        case .boolean: "true or false"
        case .date: "a date, YYYY-MM-DD"
        case .dateTime: "an RFC 3339 date-time, 2026-11-24T17:00:00Z"
        case .money: "a currency and an amount, USD:100.00"
        default: "text of 1 to 500 characters"
        }
    }

    static func integer(_ text: String) -> Int64? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.count <= 18, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int64(text)
    }
}
