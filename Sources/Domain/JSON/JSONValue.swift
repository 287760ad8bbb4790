/// A parsed JSON document that keeps what Foundation's decoders throw away: the order of an
/// object's members and the exact text of its numbers.
///
/// Request bodies are read into this (by ``JSONParser``) rather than decoded straight into
/// models, so that merge patches (RFC 7396) work on the client's document as sent and
/// validation can report every failing field by its JSON pointer instead of stopping at the
/// first. Objects are member lists, not dictionaries: the parser guarantees unique keys.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    /// Members in document order; keys are unique (duplicates are a parse error).
    case object([JSONMember])

    /// The member `key` of an object, or nil (also for non-objects).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// A number value from an integer.
    public static func integer(_ value: Int64) -> JSONValue {
        .number(JSONNumber(integer: value))
    }

    /// The JSON type's name as clients know it, for "must be a string, not a number".
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Equatable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
