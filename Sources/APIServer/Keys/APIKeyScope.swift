import Domain

/// What a key may do: `read` or `write` on every collection, or `read:<collection>` and
/// `write:<collection>` on one. A write scope also reads.
public enum APIKeyScope {
    public enum Access: String, Sendable {
        case read, write
    }

    /// The scope as given when it is one of the four forms and names a collection of `catalog`;
    /// else why not.
    public static func validate(_ scope: String, in catalog: Catalog) -> Result<String, ScopeError> {
        let parts = scope.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let access = Access(rawValue: parts[0]) else {
            return .failure(ScopeError(message: "scope \"\(scope)\": say read, write, read:COLLECTION or write:COLLECTION"))
        }
        if parts.count == 2 {
            guard catalog.collection(named: parts[1]) != nil else {
                let names = catalog.collections.map(\.name).joined(separator: ", ")
                return .failure(ScopeError(message: "scope \"\(scope)\": no collection \"\(parts[1])\"; one of \(names)"))
            }
            return .success("\(access.rawValue):\(parts[1])")
        }
        return .success(access.rawValue)
    }

    public struct ScopeError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Whether `scopes` allow `access` to `collection`.
    public static func allows(_ scopes: [String], _ access: Access, collection: String) -> Bool {
        scopes.contains { scope in
            switch scope {
            case "write", "write:" + collection: true
            case "read", "read:" + collection: access == .read
            default: false
            }
        }
    }

    /// The narrowest scope that allows `access` to `collection`: what a 403 names.
    static func needed(_ access: Access, collection: String) -> String { "\(access.rawValue):\(collection)" }
}
