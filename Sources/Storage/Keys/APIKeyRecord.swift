/// An API key as the database keeps it: never its secret, only the secret's hash.
public struct APIKeyRecord: Sendable, Hashable {
    /// The key's public id: it names the key in logs, the change log and `keys revoke`.
    public var id: String
    public var name: String
    /// SHA-256 of the whole secret the client sends.
    public var secretHash: [UInt8]
    /// What the key may do (`read`, `write`, `read:<collection>`, `write:<collection>`).
    public var scopes: [String]
    /// Seconds since 1970.
    public var createdAt: Int64
    /// Seconds since 1970; nil while the key is valid.
    public var revokedAt: Int64?

    public init(id: String, name: String, secretHash: [UInt8], scopes: [String], createdAt: Int64, revokedAt: Int64? = nil) {
        self.id = id
        self.name = name
        self.secretHash = secretHash
        self.scopes = scopes
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}
