import HTTPServer
import Storage

/// The change feed's resume token: a collection and a change-log sequence, signed like
/// cursors so a client can neither forge one nor reuse it on another collection.
enum ChangeToken {
    /// Format 3: bound to a catalog collection by name.
    static func seal(collection name: String, after sequence: Int64, signer: TokenSigner) -> String {
        let bytes = Array(name.utf8.prefix(255))
        var payload: [UInt8] = [3, UInt8(bytes.count)] + bytes
        withUnsafeBytes(of: sequence.bigEndian) { payload += $0 }
        return signer.seal(payload)
    }

    static func open(_ token: String, collection name: String, signer: TokenSigner) throws(HTTPError) -> Int64 {
        let bytes = Array(name.utf8.prefix(255))
        guard token.utf8.count <= 512, let payload = signer.open(token), payload.count == 2 + bytes.count + 8, payload[0] == 3,
            payload[1] == UInt8(bytes.count), Array(payload[2..<(2 + bytes.count)]) == bytes
        else {
            throw .badRequest("INVALID_TOKEN", "since is not a change token this server issued for \(name).", parameter: "since")
        }
        let sequence = payload[(2 + bytes.count)...].reduce(Int64(0)) { ($0 << 8) | Int64($1) }
        guard sequence >= 0 else { throw .badRequest("INVALID_TOKEN", "since is malformed.", parameter: "since") }
        return sequence
    }
}
