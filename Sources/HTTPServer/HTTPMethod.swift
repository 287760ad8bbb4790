/// The request methods rowserver knows. Anything else is answered 501 Not Implemented.
///
/// Method names are case-sensitive (RFC 9110 §9.1): `get` is not `GET`.
public enum HTTPMethod: String, Sendable, CaseIterable, Hashable {
    case GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, TRACE, CONNECT

    public init?(token: String) {
        self.init(rawValue: token)
    }
}

extension HTTPMethod {
    /// A small integer per method (0...8), for table lookups without hashing a string.
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
        }
    }
}
