import Foundation

/// Decodes one field's JSON value by its type and rules (``ItemDocument``).
struct FieldContext {
    let field: FieldDefinition
    let pointer: String
    let catalog: Catalog
    let mode: ItemDocument.Mode
    let slot: Int

    mutating func decode(_ raw: JSONValue?, _ reader: inout FieldReader, _ references: inout [ItemDocument.Reference]) -> FieldValue? {
        let rules = field.rules
        switch field.type {
        case .text, .longText, .markdown:
            return checkedText(raw, &reader).map(FieldValue.text)
        case .email:
            guard let text = checkedText(raw, &reader) else { return nil }
            if let problem = TextRules.emailProblem(text) { return reader.refuse(pointer, problem) }
            return .text(text)
        case .phone:
            guard let text = checkedText(raw, &reader) else { return nil }
            if let problem = TextRules.phoneProblem(text) { return reader.refuse(pointer, problem) }
            return .text(text)
        case .image:
            guard let text = checkedText(raw, &reader) else { return nil }
            if let problem = TextRules.imageProblem(text) { return reader.refuse(pointer, problem) }
            return .text(text)
        case .money:
            return money(raw, &reader)
        case .integer:
            return reader.integer(raw, at: pointer, minimum: rules.minimum, maximum: rules.maximum, required: true).map(FieldValue.integer)
        case .decimal(let scale):
            return decimal(raw, scale: scale, &reader)
        case .boolean:
            switch raw {
            case .bool(let value)?: return .boolean(value)
            case nil, .null?: return reader.refuse(pointer, "Required: true or false.")
            case let other?: return reader.refuse(pointer, "Must be true or false, not \(other.typeName).")
            }
        case .date:
            guard let text = reader.string(raw, at: pointer, required: true) else { return nil }
            guard let days = DateText.days(text) else { return reader.refuse(pointer, "Must be a date, YYYY-MM-DD (2026-11-24).") }
            return reader.checkRange(days, at: pointer, minimum: rules.minimum, maximum: rules.maximum, describe: DateText.text(days:)) == nil
                ? nil : .text(text)
        case .dateTime:
            guard let text = reader.string(raw, at: pointer, required: true) else { return nil }
            guard let instant = DateText.instant(text) else {
                return reader.refuse(pointer, "Must be a date and time, RFC 3339 (2026-11-24T17:00:00Z).")
            }
            return reader.checkRange(instant, at: pointer, minimum: rules.minimum, maximum: rules.maximum) {
                DateText.rfc3339(milliseconds: $0)
            }.map(FieldValue.integer)
        case .enumeration(let cases):
            guard let text = reader.string(raw, at: pointer, required: true) else { return nil }
            guard cases.contains(where: { $0.value == text }) else {
                return reader.refuse(pointer, "Must be one of \(cases.map(\.value).joined(separator: ", ")).")
            }
            return .text(text)
        case .reference(let target):
            guard let text = reader.string(raw, at: pointer, required: true) else { return nil }
            guard let kind = catalog.collection(named: target)?.kind, let id = EntityID(parsing: text, kind: kind) else {
                let prefix = catalog.collection(named: target)?.kind.rawValue ?? "?"
                return reader.refuse(pointer, "Must be an id of \(target) (\(prefix)_ and 16 characters).")
            }
            references.append(ItemDocument.Reference(pointer: pointer, collection: target, id: id))
            return .reference(id)
        case .numbers:
            guard let elements = reader.array(raw, at: pointer, minItems: rules.minItems, maxItems: rules.maxItems, required: true) else {
                return nil
            }
            var numbers: [Double] = []
            for (index, element) in elements.enumerated() {
                guard case .number(let number) = element, number.double.isFinite else {
                    reader.fail(JSONPointer.appending(pointer, index), "Must be a number, not \(element.typeName).")
                    continue
                }
                numbers.append(number.double)
            }
            return numbers.count == elements.count ? .numbers(numbers) : nil
        case .names(let kind):
            return names(raw, kind: kind, &reader)
        }
    }

    /// A text within the field's rules and pattern.
    private func checkedText(_ raw: JSONValue?, _ reader: inout FieldReader) -> String? {
        guard let text = reader.text(raw, at: pointer, rules: field.rules) else { return nil }
        if let pattern = field.rules.pattern, !TextRules.matches(text, pattern: pattern) {
            return reader.refuse(pointer, "Must match the pattern \(pattern).")
        }
        return text
    }

    /// The currency is read first because it decides the amount's bounds; its problems are
    /// still recorded after the amount's, the order clients have always been given them in.
    private func money(_ raw: JSONValue?, _ reader: inout FieldReader) -> FieldValue? {
        guard let members = reader.object(raw, at: pointer, fields: ["minorUnits", "currency"], readOnly: ["formatted"]) else { return nil }
        let rules = field.rules
        let currencyPointer = pointer + "/currency"
        var currencyReader = FieldReader()
        var currency: String?
        if let code = currencyReader.string(members["currency"], at: currencyPointer, required: true) {
            if Currency(code: code) == nil {
                currencyReader.fail(currencyPointer, "Must be an ISO 4217 currency code this server knows, in uppercase (USD, EUR, JPY).")
            } else if let allowed = rules.currencies, !allowed.contains(code) {
                currencyReader.fail(currencyPointer, "Must be one of \(allowed.joined(separator: ", ")).")
            } else {
                currency = code
            }
        }
        // Without a currency only the bounds every currency shares can be checked.
        let (minimum, maximum) = currency.map { rules.moneyRange(in: $0) } ?? (rules.minimum, rules.maximum)
        let minor = reader.integer(members["minorUnits"], at: pointer + "/minorUnits", minimum: minimum, maximum: maximum, required: true) {
            guard let currency else { return String($0) }
            return "\(Money(minorUnits: $0, currency: currency).messageText) (minorUnits \($0))"
        }
        for problem in currencyReader.problems { reader.fail(problem.pointer, problem.detail) }
        guard let minor, let currency else { return nil }
        return .money(Money(minorUnits: minor, currency: currency))
    }

    private func decimal(_ raw: JSONValue?, scale: Int, _ reader: inout FieldReader) -> FieldValue? {
        switch raw {
        case .number(let number)?:
            guard let scaled = number.scaled(by: scale) else {
                return reader.refuse(
                    pointer,
                    scale == 0
                        ? "Must be a whole number." : "Must be a number with at most \(EnglishCount.of(scale, "digit")) after the decimal point.")
            }
            return reader.checkRange(scaled, at: pointer, minimum: field.rules.minimum, maximum: field.rules.maximum) {
                DecimalText.plain($0, scale: scale)
            }.map(FieldValue.integer)
        case nil, .null?:
            return reader.refuse(pointer, "Required: a number.")
        case let other?:
            return reader.refuse(pointer, "Must be a number, not \(other.typeName).")
        }
    }

    /// Names keep their ids and positions on a change (lists aligned with them, a sample's
    /// levels, are stored by position): entries present keep theirs, new ones are appended
    /// without an id and get one.
    private func names(_ raw: JSONValue?, kind: EntityKind, _ reader: inout FieldReader) -> FieldValue? {
        let rules = field.rules
        guard let elements = reader.array(raw, at: pointer, minItems: rules.minItems, maxItems: rules.maxItems, required: true) else {
            return nil
        }
        var existing: [NamedEntry] = []
        if case .replace(let item) = mode { existing = item[slot: slot].names ?? [] }
        var taken = Set(existing.map(\.id))
        var names: [NamedEntry] = []
        var failed = false
        let nameRules = FieldRules(required: true, maxLength: rules.maxLength, minLength: rules.minLength)
        for (index, element) in elements.enumerated() {
            let entryPointer = JSONPointer.appending(pointer, index)
            guard let members = reader.object(element, at: entryPointer, fields: ["id", "name"]) else {
                failed = true
                continue
            }
            guard let name = reader.text(members["name"], at: entryPointer + "/name", rules: nameRules) else {
                failed = true
                continue
            }
            let given = members["id"] == .null ? nil : members["id"]
            if index < existing.count {
                let expected = existing[index].id
                guard given == .string(expected.rawValue) else {
                    reader.fail(
                        entryPointer + "/id",
                        "Must be \(expected.rawValue): existing entries keep their ids and positions; append new ones without an id.")
                    failed = true
                    continue
                }
                names.append(NamedEntry(id: expected, name: name))
            } else {
                guard given == nil else {
                    reader.fail(entryPointer + "/id", "Ids are assigned by the server; leave it out for a new entry.")
                    failed = true
                    continue
                }
                var id = EntityID.generate(kind: kind)
                while !taken.insert(id).inserted { id = EntityID.generate(kind: kind) }
                names.append(NamedEntry(id: id, name: name))
            }
        }
        return failed ? nil : .names(names)
    }
}

/// The rules of the text types beyond length: for writes here, and for a definition's defaults
/// and row images (the definition checker words the same rules its own way).
public enum TextRules {
    /// Deliberately loose (addresses are checked by sending mail, not by patterns): one `@`
    /// with text on both sides, no whitespace.
    public static func emailProblem(_ address: String) -> String? {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return "Must contain exactly one @." }
        guard !parts[0].isEmpty, !parts[1].isEmpty else { return "Needs text before and after the @." }
        guard !address.contains(where: \.isWhitespace) else { return "Must not contain whitespace." }
        return nil
    }

    /// Kept as entered (lists show it verbatim), so only the characters are checked.
    public static func phoneProblem(_ number: String) -> String? {
        guard number.unicodeScalars.allSatisfy(isPhoneScalar) else { return "May contain only digits, spaces and ( ) + - ." }
        return number.unicodeScalars.contains { ("0"..."9").contains($0) } ? nil : "Must contain at least one digit."
    }

    /// A digit, or one of the separators a phone number is written with.
    public static func isPhoneScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar) || " ()+-.".unicodeScalars.contains(scalar)
    }

    /// An SF Symbols name or an absolute `http`/`https` URL with a host.
    static func imageProblem(_ text: String) -> String? {
        isSymbolName(text) || isWebURL(text) ? nil : "Must be an SF Symbols name (star.fill) or an http(s) URL."
    }

    /// `star.fill`: lowercase letters and digits in dot-separated words.
    public static func isSymbolName(_ text: String) -> Bool {
        !text.isEmpty
            && text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { word in
                !word.isEmpty && word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            }
    }

    public static func isWebURL(_ text: String) -> Bool {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host else { return false }
        return ["http", "https"].contains(scheme) && !host.isEmpty
    }

    /// Whether the whole of `text` matches `pattern` (ICU, as the definition loader checked it).
    public static func matches(_ text: String, pattern: String) -> Bool {
        guard let expression = PatternCache.shared.expression(pattern) else { return false }
        let range = NSRange(text.startIndex..., in: text)
        guard let match = expression.firstMatch(in: text, options: [.anchored], range: range) else { return false }
        return match.range == range
    }
}

/// Compiled patterns, one per pattern text: a definition has few, and compiling per write would
/// cost more than the match.
final class PatternCache: @unchecked Sendable {
    static let shared = PatternCache()
    private let lock = NSLock()
    private var expressions: [String: NSRegularExpression] = [:]

    func expression(_ pattern: String) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if let cached = expressions[pattern] { return cached }
        guard let compiled = try? NSRegularExpression(pattern: pattern) else { return nil }
        expressions[pattern] = compiled
        return compiled
    }
}
