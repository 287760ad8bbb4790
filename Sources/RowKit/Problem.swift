/// An error the server answered (RFC 9457 problem details), with its stable machine `code`.
///
/// `switch problem.code { case .notFound: … case .validationFailed: … }` matches the codes the
/// server documents; a code this version of RowKit does not name still compares by its text.
public struct Problem: Error, Decodable, Hashable, Sendable {
    public struct Code: RawRepresentable, Hashable, Sendable, Decodable, ExpressibleByStringLiteral, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }
        public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
        public var description: String { rawValue }

        public static let notFound: Code = "NOT_FOUND"
        public static let validationFailed: Code = "VALIDATION_FAILED"
        public static let preconditionFailed: Code = "PRECONDITION_FAILED"
        public static let conflict: Code = "CONFLICT"
        public static let changesExpired: Code = "CHANGES_EXPIRED"
        public static let invalidCursor: Code = "INVALID_CURSOR"
        public static let invalidToken: Code = "INVALID_TOKEN"
        public static let payloadTooLarge: Code = "PAYLOAD_TOO_LARGE"
        public static let unsupportedMediaType: Code = "UNSUPPORTED_MEDIA_TYPE"
        public static let methodNotAllowed: Code = "METHOD_NOT_ALLOWED"
        public static let serviceUnavailable: Code = "SERVICE_UNAVAILABLE"
    }

    /// One field a write got wrong, by JSON pointer into the body.
    public struct FieldError: Decodable, Hashable, Sendable {
        public var pointer: String
        public var detail: String
    }

    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    public var code: Code
    /// The query parameter or header at fault.
    public var parameter: String?
    public var instance: String?
    /// For VALIDATION_FAILED: each field at fault.
    public var errors: [FieldError]?

    public init(status: Int, code: Code, title: String, detail: String) {
        self.type = "about:blank"
        self.title = title
        self.status = status
        self.detail = detail
        self.code = code
    }
}
