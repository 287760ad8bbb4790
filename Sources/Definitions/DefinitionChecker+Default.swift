import Domain
import Foundation
import Yams

/// A field's `default`, read by its type into the value a create takes, and held to the
/// field's own rules: a default that a client could not write is a mistake in the definition.
extension DefinitionChecker {
    mutating func readDefault(_ node: Node, type: FieldType, rules: FieldRules, what: String) -> FieldValue? {
        let place = "The default of \(what)"
        if case .reference = type {
            return refuse("default-not-allowed", "\(what) is a reference and cannot have a default (ids are made when items are).", at: node)
        }
        if case .names = type {
            return refuse("default-not-allowed", "\(what) is a names field and cannot have a default (each name gets its own id).", at: node)
        }
        if node.tagName == .null, case .scalar = node {
            return refuse("bad-default", "\(place) is null: leave `default` out for no default.", at: node)
        }
        let start = errors.count
        let value = defaultValue(node, type: type, rules: rules, place: place)
        recode(since: start, as: "bad-default")
        return value
    }

    private mutating func defaultValue(_ node: Node, type: FieldType, rules: FieldRules, place: String) -> FieldValue? {
        switch type {
        case .text, .longText, .markdown, .email, .phone, .image:
            guard let text = string(node, place), checkText(text, type: type, rules: rules, node: node, place: place) else { return nil }
            return .text(text)
        case .integer, .money, .decimal, .date, .dateTime:
            return bounded(node, type: type, rules: rules, place: place)
        case .boolean:
            return boolean(node, place).map(FieldValue.boolean)
        case .enumeration(let cases):
            guard let text = string(node, place) else { return nil }
            guard cases.contains(where: { $0.value == text }) else {
                return refuse(
                    "bad-default", "\(place) \"\(Self.shortened(text))\" is not one of its values: \(cases.map(\.value).joined(separator: ", ")).",
                    at: node)
            }
            return .text(text)
        case .numbers:
            guard let elements = list(node, place) else { return nil }
            var numbers: [Double] = []
            for element in elements {
                guard case .scalar(let scalar) = element, [.int, .float].contains(element.tagName), let number = ScalarNumber.double(scalar.string)
                else {
                    wrongKind(element, "An entry of \(place.lowercasedFirst)", expected: "a number in plain decimal notation")
                    continue
                }
                numbers.append(number)
            }
            guard numbers.count == elements.count, checkCount(elements.count, rules: rules, node: node, place: place) else { return nil }
            return .numbers(numbers)
        case .reference, .names:
            return nil
        }
    }

    /// Types kept as a whole number (integer, decimal, money, date, date-time), checked against
    /// `minimum` and `maximum` in those units.
    private mutating func bounded(_ node: Node, type: FieldType, rules: FieldRules, place: String) -> FieldValue? {
        let value: FieldValue
        let number: Int64
        var (minimum, maximum) = (rules.minimum, rules.maximum)
        var unit = ""
        switch type {
        case .money:
            guard let object = object(node, place, known: ["minorUnits", "currency"], required: ["minorUnits", "currency"]),
                let unitsNode = object.value("minorUnits"), let codeNode = object.value("currency"),
                let units = integer(unitsNode, "`minorUnits` of \(place.lowercasedFirst)", in: .min ... .max),
                let code = string(codeNode, "`currency` of \(place.lowercasedFirst)")
            else { return nil }
            guard Currency(code: code) != nil, rules.currencies?.contains(code) ?? true else {
                let allowed = rules.currencies.map { "one of \($0.joined(separator: ", "))" } ?? "an ISO 4217 code this server knows"
                return refuse("bad-default", "The currency \"\(Self.shortened(code))\" of \(place.lowercasedFirst) must be \(allowed).", at: codeNode)
            }
            (value, number) = (.money(Money(minorUnits: units, currency: code)), units)
            (minimum, maximum) = rules.moneyRange(in: code)
            unit = " in \(code)"
        case .date:
            guard let text = string(node, place) else { return nil }
            guard let days = DateText.days(text) else {
                return refuse("bad-default", "\(place) must be a real date written YYYY-MM-DD, not \"\(Self.shortened(text))\".", at: node)
            }
            (value, number) = (.text(text), days)
        default:
            guard let scaled = bound(node, place, type: type) else { return nil }
            (value, number) = (.integer(scaled), scaled)
        }
        if let minimum, number < minimum {
            return refuse("bad-default", "\(place) is below the field's `minimum`\(unit).", at: node)
        }
        if let maximum, number > maximum {
            return refuse("bad-default", "\(place) is above the field's `maximum`\(unit).", at: node)
        }
        return value
    }

    private mutating func checkText(_ text: String, type: FieldType, rules: FieldRules, node: Node, place: String) -> Bool {
        let length = text.unicodeScalars.count
        var problem: String?
        if rules.required, text.allSatisfy(\.isWhitespace) {
            problem = "is blank, but the field is required"
        } else if let maximum = rules.maxLength, length > maximum {
            problem = "is longer than the field's maxLength (\(maximum))"
        } else if let minimum = rules.minLength, length < minimum {
            problem = "is shorter than the field's minLength (\(minimum))"
        } else if let pattern = rules.pattern, !TextRules.matches(text, pattern: pattern) {
            problem = "does not match the field's pattern"
        } else {
            problem = TextRules.problem(text, type: type)
        }
        guard let problem else { return true }
        report("bad-default", "\(place) \(problem).", at: node)
        return false
    }

    private mutating func checkCount(_ count: Int, rules: FieldRules, node: Node, place: String) -> Bool {
        if let minimum = rules.minItems, count < minimum {
            report("bad-default", "\(place) has fewer entries than the field's minItems (\(minimum)).", at: node)
            return false
        }
        if let maximum = rules.maxItems, count > maximum {
            report("bad-default", "\(place) has more entries than the field's maxItems (\(maximum)).", at: node)
            return false
        }
        return true
    }
}

extension String {
    var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }

    /// "an integer field", "a date field": type names are English words (or start as one).
    var withIndefiniteArticle: String { ("aeiou".contains(prefix(1).lowercased()) ? "an " : "a ") + self }
}
