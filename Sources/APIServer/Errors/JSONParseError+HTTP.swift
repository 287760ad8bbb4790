import Domain
import HTTPServer

/// How a body that is not acceptable JSON is answered: always 400, with a code per reason.
extension JSONParseError {
    public var httpError: HTTPError {
        switch kind {
        case .malformed: .badRequest("MALFORMED_JSON", detail)
        case .invalidUTF8: .badRequest("INVALID_UTF8", detail)
        case .tooDeep: .badRequest("JSON_TOO_DEEP", detail)
        case .duplicateKey(let pointer):
            HTTPError(status: 400, code: "DUPLICATE_KEY", detail: detail, errors: [.init(pointer: pointer, detail: "Duplicate key.")])
        }
    }
}
