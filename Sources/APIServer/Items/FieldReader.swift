import Domain
import HTTPServer

/// Reads the fields of a request document for validation, collecting every failure.
///
/// Each reader checks one field and, when it fails, records one error at its pointer and
/// returns a placeholder ("" or 0): the caller reads every field, then builds a model only
/// when ``errors`` is empty, so the client learns all its mistakes from one response.
struct FieldReader {
    private(set) var errors: [HTTPError.FieldError] = []

    mutating func fail(_ pointer: String, _ detail: String) {
        errors.append(.init(pointer: pointer, detail: detail))
    }

    /// The members of the object at `pointer`, by key, or nil (after recording why) when it is
    /// not an object. Keys outside `fields` fail as read-only (when in `readOnly`) or unknown;
    /// the others are still returned, so their own checks run too.
    mutating func object(_ value: JSONValue?, at pointer: String, fields: [String], readOnly: [String] = []) -> [String: JSONValue]? {
        switch value {
        case .object(let members)?:
            var byKey: [String: JSONValue] = [:]
            for member in members {
                if fields.contains(member.key) {
                    byKey[member.key] = member.value
                } else if readOnly.contains(member.key) {
                    fail(JSONPointer.appending(pointer, member.key), "This field is read-only; leave it out.")
                } else {
                    fail(JSONPointer.appending(pointer, member.key), "Unknown field; the fields are \(fields.joined(separator: ", ")).")
                }
            }
            return byKey
        case nil, .null?:
            fail(pointer, "Required: an object.")
            return nil
        case let other?:
            fail(pointer, "Must be an object, not \(other.typeName).")
            return nil
        }
    }

    /// A text field: a string without NUL, within `rule`; "" when absent and optional.
    mutating func text(_ value: JSONValue?, at pointer: String, _ rule: TextRule) -> String {
        guard let text = string(value, at: pointer, required: rule.required) else { return "" }
        if rule.required, text.allSatisfy(\.isWhitespace) {
            fail(pointer, text.isEmpty ? "Must not be empty." : "Must not be blank.")
            return ""
        }
        // Lengths count Unicode scalars, as JSON Schema's maxLength does (openapi.yaml states
        // the same numbers). UTF-8 bytes bound the count from above: count only when needed.
        if text.utf8.count > rule.maxCharacters, text.unicodeScalars.count > rule.maxCharacters {
            fail(pointer, "Must be at most \(rule.maxCharacters) characters (Unicode scalars) long.")
            return ""
        }
        return text
    }

    /// A string without NUL; nil (after recording why, when it matters) otherwise.
    mutating func string(_ value: JSONValue?, at pointer: String, required: Bool) -> String? {
        switch value {
        case .string(let text)?:
            guard !text.utf8.contains(0) else {
                fail(pointer, "Must not contain NUL characters.")
                return nil
            }
            return text
        case nil, .null?:
            if required { fail(pointer, "Required: a string.") }
            return nil
        case let other?:
            fail(pointer, "Must be a string, not \(other.typeName).")
            return nil
        }
    }

    /// A whole number within `range`; 0 after a failure.
    mutating func integer(_ value: JSONValue?, at pointer: String, range: ClosedRange<Int64>) -> Int64 {
        switch value {
        case .number(let number)?:
            guard let integer = number.int64 else {
                fail(pointer, "Must be a whole number from \(range.lowerBound) to \(range.upperBound).")
                return 0
            }
            if integer < range.lowerBound {
                fail(pointer, range.lowerBound == 0 ? "Must not be negative." : "Must be at least \(range.lowerBound).")
                return 0
            }
            if integer > range.upperBound {
                fail(pointer, "Must be at most \(range.upperBound).")
                return 0
            }
            return integer
        case nil, .null?:
            fail(pointer, "Required: a whole number.")
            return 0
        case let other?:
            fail(pointer, "Must be a number, not \(other.typeName).")
            return 0
        }
    }

    /// An array of `count` elements; empty after a failure.
    mutating func array(_ value: JSONValue?, at pointer: String, count: ClosedRange<Int>) -> [JSONValue] {
        switch value {
        case .array(let elements)?:
            guard count.contains(elements.count) else {
                fail(pointer, "Must have \(count.lowerBound) to \(count.upperBound) elements.")
                return []
            }
            return elements
        case nil, .null?:
            fail(pointer, "Required: an array.")
            return []
        case let other?:
            fail(pointer, "Must be an array, not \(other.typeName).")
            return []
        }
    }
}
