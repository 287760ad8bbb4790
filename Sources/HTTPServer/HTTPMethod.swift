/// The request methods rowserver knows. Anything else is answered 501 Not Implemented.
///
/// Method names are case-sensitive (RFC 9110 §9.1): `get` is not `GET`.
public enum HTTPMethod: String, Sendable, CaseIterable, Hashable {
    case GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, TRACE, CONNECT

    public init?(token: String) {
        self.init(rawValue: token)
    }
}
