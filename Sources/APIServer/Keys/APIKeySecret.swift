import Crypto
import Storage

/// The secret a client sends as `Authorization: Bearer <secret>`: `rsk_<id>_<secret>`, where the
/// id (12 lowercase Crockford base32 digits, 60 bits) names the key in logs and commands, and
/// the secret part (52 digits, 260 random bits) is what only the client knows. The database
/// keeps the SHA-256 of the whole string, never the string.
public enum APIKeySecret {
    static let prefix = "rsk_"
    static let idLength = 12
    static let secretLength = 52
    static let alphabet: [UInt8] = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)
    /// The length of every secret, in bytes.
    static let length = prefix.utf8.count + idLength + 1 + secretLength

    /// A new key's id and secret, from the system's random generator.
    public static func generate() -> (id: String, secret: String) {
        var generator = SystemRandomNumberGenerator()
        func digits(_ count: Int) -> String {
            String(decoding: (0..<count).map { _ in alphabet[Int(generator.next(upperBound: UInt8(32)))] }, as: UTF8.self)
        }
        let id = digits(idLength)
        return (id, prefix + id + "_" + digits(secretLength))
    }

    /// The key id of a well-formed secret; nil for anything else (any other length, prefix or digit).
    public static func keyID(of secret: String) -> String? {
        let bytes = Array(secret.utf8)
        let start = prefix.utf8.count
        guard bytes.count == length, bytes.starts(with: prefix.utf8), bytes[start + idLength] == UInt8(ascii: "_") else { return nil }
        for (index, byte) in bytes.enumerated() where index >= start && index != start + idLength {
            guard alphabet.contains(byte) else { return nil }
        }
        return String(decoding: bytes[start..<(start + idLength)], as: UTF8.self)
    }

    /// SHA-256 of the secret's bytes: what the database keeps.
    public static func hash(_ secret: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(secret.utf8)))
    }

    /// Whether two digests are equal, in time that does not depend on where they differ.
    static func sameDigest(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

extension KeyRecords {
    /// Makes a key with `scopes` (already validated) and returns it with its secret: the only
    /// time the secret exists outside the client.
    public func create(name: String, scopes: [String], at time: Int64) throws(StoreError) -> (key: APIKeyRecord, secret: String) {
        let (id, secret) = APIKeySecret.generate()
        let key = APIKeyRecord(id: id, name: name, secretHash: APIKeySecret.hash(secret), scopes: scopes, createdAt: time)
        try add(key)
        return (key, secret)
    }
}
