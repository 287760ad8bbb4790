import Domain
import HTTPServer

/// How a body that is not acceptable JSON is answered: always 400, with a code per reason.
///
/// | kind | code |
/// |---|---|
/// | `malformed` | `MALFORMED_JSON` |
/// | `invalidUTF8` | `INVALID_UTF8` |
/// | `tooDeep` | `JSON_TOO_DEEP` |
/// | `duplicateKey` | `DUPLICATE_KEY`, with the key's pointer in `errors` |
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
