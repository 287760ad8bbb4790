/// The request methods rowserver knows. A method on a path that does not route it, known or
/// not, is 405 with `Allow` (404 where no route lives).
///
/// Method names are case-sensitive (RFC 9110 §9.1): `get` is not `GET`. QUERY is the safe
/// method with a body (draft-ietf-httpbis-safe-method-w-body): known, so that clients probing
/// it learn which methods a path allows, though no route answers it.
public enum HTTPMethod: String, Sendable, CaseIterable, Hashable {
    // The cases are the method tokens themselves (case-sensitive, upper case by RFC 9110).
    // swift-format-ignore: AlwaysUseLowerCamelCase
    case GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, TRACE, CONNECT, QUERY

    public init?(token: String) {
        self.init(rawValue: token)
    }
}

extension HTTPMethod {
    /// A small integer per method (0...9), for table lookups without hashing a string.
    var index: Int {
        switch self {
        case .GET: 0
        case .HEAD: 1
        case .POST: 2
        case .PUT: 3
        case .PATCH: 4
        case .DELETE: 5
        case .OPTIONS: 6
        case .TRACE: 7
        case .CONNECT: 8
        case .QUERY: 9
        }
    }
}
