import Foundation

/// Formats one field's value as a row, cell or section shows it, by the field's type and the
/// request's locale. Pure: referenced items' titles and aligned names come from the caller.
///
/// | type | shown as |
/// |---|---|
/// | text, longText, email, phone, image | the text as written |
/// | markdown | its plain text (no markup) |
/// | money | currency in the locale (`$1,234.50`, `1.234,50 €`) |
/// | integer | grouped (`5,000`, `5.000`) |
/// | decimal | grouped, exactly `scale` fraction digits |
/// | boolean | `Yes`/`No` in the locale's language |
/// | date, dateTime | the locale's medium date (and time, UTC) |
/// | enum | the value's label in the locale |
/// | reference | the referenced item's title (from `referenceTitle`) |
/// | numbers | `0.50, 0.25`; with names, `Left 0.50, Right 0.25` (`—` where a number is missing) |
/// | names | `Left, Right` |
///
/// A null value (and an empty list) is nil.
public struct FieldFormatter: Sendable {
    public let context: RenderContext

    public init(context: RenderContext) {
        self.context = context
    }

    /// `value` of a field of `type`. `referenceTitle` is the title of the item a reference
    /// points to; `names` are the names a numbers field's entries belong to, in order.
    public func format(
        _ value: FieldValue, as type: FieldType, referenceTitle: String? = nil, names: [NamedEntry]? = nil
    ) -> String? {
        switch (type, value) {
        case (_, .null): return nil
        case (.markdown, .text(let text)): return MarkdownPlainText.plainText(of: text)
        case (.enumeration(let cases), .text(let text)):
            return cases.first { $0.value == text }?.label[context.locale] ?? text
        case (.date, .text(let text)): return DateDisplay.date(text, locale: context.locale) ?? text
        case (_, .text(let text)): return text
        case (.decimal(let scale), .integer(let scaled)):
            return context.decimal(Double(scaled) / pow(10, Double(scale)), fractionDigits: scale)
        case (.dateTime, .integer(let milliseconds)): return DateDisplay.dateTime(milliseconds: milliseconds, locale: context.locale)
        case (_, .integer(let integer)): return context.integer(integer)
        case (_, .boolean(let flag)): return BooleanLabels.label(flag, locale: context.locale)
        case (_, .money(let money)): return context.currency(money)
        case (_, .reference(let id)): return referenceTitle ?? id.rawValue
        case (_, .numbers(let numbers)): return self.numbers(numbers, type: type, names: names)
        case (_, .names(let entries)): return entries.isEmpty ? nil : entries.map(\.name).joined(separator: ", ")
        }
    }

    /// Writes ``format(_:as:referenceTitle:names:)`` of an integer shown grouped (any type but
    /// decimal and date-time, as that function's cases go) at the start of `buffer`, without
    /// making a `String`: how many bytes, or nil (nothing written) for any other value, or when
    /// only ``format(_:as:referenceTitle:names:)`` can make it.
    public func write(_ value: FieldValue, as type: FieldType, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard case .integer(let integer) = value else { return nil }
        switch type {
        case .decimal, .dateTime: return nil
        default: return context.writeInteger(integer, into: buffer)
        }
    }

    /// One number of a numbers field, with the field's fraction digits.
    public func number(_ value: Double, type: FieldType) -> String {
        context.decimal(value, fractionDigits: Self.fractionDigits(type))
    }

    /// Writes the UTF-8 of ``number(_:type:)`` at the start of `buffer` without making a `String`:
    /// how many bytes, or nil (nothing written) when only ``number(_:type:)`` can make it.
    public func writeNumber(_ value: Double, type: FieldType, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        context.writeDecimal(value, fractionDigits: Self.fractionDigits(type), into: buffer)
    }

    private static func fractionDigits(_ type: FieldType) -> Int {
        if case .numbers(let digits) = type { return digits }
        return 2
    }

    private func numbers(_ numbers: [Double], type: FieldType, names: [NamedEntry]?) -> String? {
        guard let names else {
            return numbers.isEmpty ? nil : numbers.map { number($0, type: type) }.joined(separator: ", ")
        }
        guard !names.isEmpty else { return nil }
        var text = ""
        for (index, entry) in names.enumerated() {
            if !text.isEmpty { text += ", " }
            text += entry.name
            text += " "
            text += numbers.indices.contains(index) ? number(numbers[index], type: type) : Unavailable.text
        }
        return text
    }
}

/// What a cell shows for a value that is missing or cannot be computed: an em dash.
public enum Unavailable {
    public static let text = "\u{2014}"
}

/// `Yes`/`No` per language.
enum BooleanLabels {
    static func label(_ flag: Bool, locale: RenderLocale) -> String {
        switch locale.language {
        case "de": flag ? "Ja" : "Nein"
        case "fr": flag ? "Oui" : "Non"
        case "ja": flag ? "はい" : "いいえ"
        default: flag ? "Yes" : "No"
        }
    }
}
