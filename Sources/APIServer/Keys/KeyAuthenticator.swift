import HTTPServer
import Storage

/// The request stage that finds who sent a request: no `Authorization` is an anonymous
/// request (public reads only); `Authorization: Bearer <secret>` must name a key that exists,
/// is not revoked and whose hash matches, else 401 — for every route, so a client learns of a
/// bad key at once. What the key may do is checked by the routes (`Request.require`).
struct KeyAuthenticator: RequestStage {
    let keys: any KeyRecords

    func prepare(_ request: inout Request) throws {
        // A key in the URL ends up in logs, proxies and browser history: refused, never looked up.
        if let item = request.query.first(where: { AccessLog.isCredentialParameter($0.name) }) {
            throw HTTPError.badRequest(
                "KEY_IN_QUERY", "Send an API key in the Authorization header (Bearer), never in the URL; the request was refused.",
                parameter: item.name)
        }
        let count = request.headers.count(of: "Authorization")
        guard count > 0 else { return }
        guard count == 1, let value = request.headers["Authorization"] else {
            throw HTTPError.badRequest("DUPLICATE_HEADER", "Send one Authorization header.", parameter: "Authorization")
        }
        let secret = try Self.bearerSecret(value)
        guard let id = APIKeySecret.keyID(of: secret), let key = try keys.current(id: id), key.revokedAt == nil,
            APIKeySecret.sameDigest(APIKeySecret.hash(secret), key.secretHash)
        else { throw HTTPError.invalidKey("The key is unknown, malformed or revoked.") }
        request.principal = Principal(id: key.id, scopes: key.scopes)
    }

    /// The token of `Bearer <token>` (the scheme in any case, RFC 9110 §11.1).
    static func bearerSecret(_ value: String) throws(HTTPError) -> String {
        let utf8 = value.utf8
        guard utf8.count <= 7 + APIKeySecret.length + 16, utf8.count > 7, value.prefix(7).lowercased() == "bearer " else {
            throw HTTPError.invalidKey("Send the key as Authorization: Bearer <key>.")
        }
        return value.dropFirst(7).trimmingASCIIWhitespace()
    }
}

extension HTTPError {
    static let realm = #"Bearer realm="rowserver""#

    /// 401 for a key that does not authenticate (RFC 6750 `invalid_token`).
    static func invalidKey(_ detail: String) -> HTTPError {
        HTTPError(
            status: 401, code: "INVALID_KEY", detail: detail,
            headers: HTTPHeaders([("WWW-Authenticate", realm + #", error="invalid_token""#)]))
    }

    /// 401 for a request that needs a key and has none.
    static func keyRequired(_ detail: String) -> HTTPError {
        HTTPError(status: 401, code: "KEY_REQUIRED", detail: detail, headers: HTTPHeaders([("WWW-Authenticate", realm)]))
    }

    /// 403 for a key whose scopes do not cover the request (RFC 6750 `insufficient_scope`).
    static func keyScope(_ detail: String, needed: String) -> HTTPError {
        HTTPError(
            status: 403, code: "KEY_SCOPE", detail: detail,
            headers: HTTPHeaders([("WWW-Authenticate", realm + #", error="insufficient_scope", scope=""# + needed + "\"")]))
    }
}

extension Request {
    /// Throws 401 without a key, 403 when the key's scopes do not allow `access` to `collection`.
    func require(_ access: APIKeyScope.Access, _ collection: String) throws(HTTPError) {
        guard let principal else {
            throw .keyRequired(
                access == .write
                    ? "Writing to \(collection) needs an API key with a write scope (Authorization: Bearer <key>)."
                    : "Reading \(collection) needs an API key with a read scope (Authorization: Bearer <key>).")
        }
        guard APIKeyScope.allows(principal.scopes, access, collection: collection) else {
            let needed = APIKeyScope.needed(access, collection: collection)
            throw .keyScope("The key does not allow \(access.rawValue) on \(collection) (it needs \(needed) or \(access.rawValue)).", needed: needed)
        }
    }
}
