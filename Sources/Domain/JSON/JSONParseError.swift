/// Why a request body is not a JSON document this server accepts, and where.
public struct JSONParseError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Not JSON (RFC 8259): bad token, trailing bytes, leading zeros, raw control
        /// characters in a string, a lone surrogate escape, a number beyond `Double`'s range.
        case malformed
        /// The bytes are not well-formed UTF-8 (RFC 3629): overlong forms, surrogates, truncation.
        case invalidUTF8
        /// Objects and arrays nest deeper than ``JSONParser/maxDepth``.
        case tooDeep
        /// An object names the same key twice; `pointer` addresses the second occurrence.
        case duplicateKey(pointer: String)
    }

    public var kind: Kind
    /// Byte offset into the body where the problem was found.
    public var offset: Int
    /// A sentence for the client, naming the offset.
    public var detail: String

    public init(_ kind: Kind, offset: Int, detail: String) {
        self.kind = kind
        self.offset = offset
        self.detail = detail
    }
}
