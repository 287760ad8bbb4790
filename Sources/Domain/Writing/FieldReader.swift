/// One failing field of a write: where (a JSON pointer) and why, in a sentence for the client.
public struct FieldProblem: Sendable, Hashable {
    public var pointer: String
    public var detail: String
}

/// Reads the fields of a write's document, collecting every failure.
///
/// Each reader checks one value and, when it fails, records one problem at its pointer and
/// returns nil: the caller reads every field, then builds an item only when ``problems`` is
/// empty, so the client learns all its mistakes from one response.
struct FieldReader {
    private(set) var problems: [FieldProblem] = []

    mutating func fail(_ pointer: String, _ detail: String) {
        problems.append(FieldProblem(pointer: pointer, detail: detail))
    }

    /// Records why the value at `pointer` is refused, and gives none.
    mutating func refuse<T>(_ pointer: String, _ detail: String) -> T? {
        fail(pointer, detail)
        return nil
    }

    /// The members of the object at `pointer`, by key, or nil (after recording why) when it is
    /// not an object. Keys outside `fields` fail as read-only (when in `readOnly`) or unknown;
    /// the others are returned, so their own checks run too.
    /// `pathKeys`: fields the request's path gives (a child's parent), refused in the body.
    mutating func object(
        _ value: JSONValue?, at pointer: String, fields: [String], readOnly: Set<String> = [], pathKeys: Set<String> = []
    ) -> [String: JSONValue]? {
        switch value {
        case .object(let members)?:
            var byKey: [String: JSONValue] = [:]
            for member in members {
                if fields.contains(member.key) {
                    byKey[member.key] = member.value
                } else if pathKeys.contains(member.key) {
                    fail(JSONPointer.appending(pointer, member.key), "The path names this item's parent; leave it out.")
                } else if readOnly.contains(member.key) {
                    fail(JSONPointer.appending(pointer, member.key), "This field is read-only; leave it out.")
                } else {
                    fail(JSONPointer.appending(pointer, member.key), "Unknown field; the fields are \(fields.joined(separator: ", ")).")
                }
            }
            return byKey
        case nil, .null?:
            return refuse(pointer, "Required: an object.")
        case let other?:
            return refuse(pointer, "Must be an object, not \(other.typeName).")
        }
    }

    /// A string without NUL; nil (after recording why, when `required`) otherwise.
    mutating func string(_ value: JSONValue?, at pointer: String, required: Bool) -> String? {
        switch value {
        case .string(let text)?:
            guard !text.utf8.contains(0) else {
                return refuse(pointer, "Must not contain NUL characters.")
            }
            return text
        case nil, .null?:
            if required { fail(pointer, "Required: a string.") }
            return nil
        case let other?:
            return refuse(pointer, "Must be a string, not \(other.typeName).")
        }
    }

    /// A text within `rules`: not blank when required; lengths count Unicode scalars, as JSON
    /// Schema's `maxLength` does (the OpenAPI document states the same numbers).
    mutating func text(_ value: JSONValue?, at pointer: String, rules: FieldRules) -> String? {
        guard let text = string(value, at: pointer, required: rules.required) else { return nil }
        if rules.required, text.allSatisfy(\.isWhitespace) {
            return refuse(pointer, text.isEmpty ? "Must not be empty." : "Must not be blank.")
        }
        // UTF-8 bytes bound the count from above: count only when needed.
        if let maximum = rules.maxLength, text.utf8.count > maximum, text.unicodeScalars.count > maximum {
            return refuse(pointer, "Must be at most \(EnglishCount.of(maximum, "character")) (Unicode scalars) long.")
        }
        if let minimum = rules.minLength, text.unicodeScalars.count < minimum {
            return refuse(pointer, "Must be at least \(EnglishCount.of(minimum, "character")) (Unicode scalars) long.")
        }
        return text
    }

    /// A whole number within `minimum...maximum`; `describe` writes a bound for the message.
    mutating func integer(
        _ value: JSONValue?, at pointer: String, minimum: Int64?, maximum: Int64?, required: Bool, describe: (Int64) -> String = { String($0) }
    ) -> Int64? {
        switch value {
        case .number(let number)?:
            let lower = minimum ?? .min
            let upper = maximum ?? .max
            guard let integer = number.int64 else {
                return refuse(pointer, "Must be a whole number from \(lower) to \(upper).")
            }
            return checkRange(integer, at: pointer, minimum: minimum, maximum: maximum, describe: describe)
        case nil, .null?:
            if required { fail(pointer, "Required: a whole number.") }
            return nil
        case let other?:
            return refuse(pointer, "Must be a number, not \(other.typeName).")
        }
    }

    /// `value` when within the bounds, else nil after recording which bound it broke.
    mutating func checkRange(_ value: Int64, at pointer: String, minimum: Int64?, maximum: Int64?, describe: (Int64) -> String = { String($0) })
        -> Int64?
    {
        if let minimum, value < minimum {
            return refuse(pointer, minimum == 0 ? "Must not be negative." : "Must be at least \(describe(minimum)).")
        }
        if let maximum, value > maximum {
            return refuse(pointer, "Must be at most \(describe(maximum)).")
        }
        return value
    }

    /// What an array outside `lower...upper` elements is told: "Must have 1 to 3 elements.",
    /// "Must have exactly 1 element.", "Must have at most 1 element.", "Must have at least 2 elements."
    static func elementCount(_ lower: Int, _ upper: Int?) -> String {
        switch (lower, upper) {
        case (_, nil): "Must have at least \(EnglishCount.of(lower, "element"))."
        case (0, let upper?): "Must have at most \(EnglishCount.of(upper, "element"))."
        case (_, let upper?) where upper == lower: "Must have exactly \(EnglishCount.of(lower, "element"))."
        case (_, let upper?): "Must have \(lower) to \(EnglishCount.of(upper, "element"))."
        }
    }

    /// An array of `minItems...maxItems` elements; nil after a failure.
    mutating func array(_ value: JSONValue?, at pointer: String, minItems: Int?, maxItems: Int?, required: Bool) -> [JSONValue]? {
        switch value {
        case .array(let elements)?:
            let lower = minItems ?? 0
            if elements.count < lower || elements.count > (maxItems ?? .max) {
                return refuse(pointer, Self.elementCount(lower, maxItems))
            }
            return elements
        case nil, .null?:
            if required { fail(pointer, "Required: an array.") }
            return nil
        case let other?:
            return refuse(pointer, "Must be an array, not \(other.typeName).")
        }
    }
}
