import APIServer
import Foundation

/// The key that signs cursors and change tokens, kept in a file beside the database
/// (`rowserver.sqlite.key`, mode 0600) so that cursors clients hold survive a restart.
enum TokenKeyFile {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func load(besides database: String) throws -> [UInt8] {
        // An in-memory database lives as long as the process; so may its key.
        if database == ":memory:" || database.isEmpty { return Application.newTokenKey() }
        let path = database + ".key"
        if let data = FileManager.default.contents(atPath: path) {
            guard data.count == 32 else { throw Failure(description: "\(path) is not a 32-byte key; delete it to make a new one") }
            return Array(data)
        }
        let key = Application.newTokenKey()
        guard FileManager.default.createFile(atPath: path, contents: Data(key), attributes: [.posixPermissions: 0o600]) else {
            throw Failure(description: "cannot write \(path)")
        }
        return key
    }
}
