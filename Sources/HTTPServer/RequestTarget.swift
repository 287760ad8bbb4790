/// The raw request target, split and decoded the way routing needs it.
///
/// libmicrohttpd hands handlers a path it has already percent-decoded, where `%2F` has become
/// a `/` and `%00` ends the string. rowserver routes on the raw target instead: it splits the
/// path on literal `/` first and decodes each segment afterwards, so an encoded slash stays
/// inside its segment and can never change which route is taken.
public struct RequestTarget: Sendable, Equatable {
    /// The raw path, still percent-encoded (`/v1/products/prd_01`).
    public var path: String
    /// Decoded path segments (`["v1", "products", "prd_01"]`); the root `/` has none.
    public var segments: [String]
    public var query: [QueryItem]

    public init(path: String, segments: [String], query: [QueryItem]) {
        self.path = path
        self.segments = segments
        self.query = query
    }

    /// Longest raw query string parsed; the connection memory limit bounds it anyway.
    static let maxQueryItems = 64

    public static func parse(_ raw: String) throws(HTTPError) -> RequestTarget {
        var target = Substring(raw)
        if target == "*" { return RequestTarget(path: "*", segments: ["*"], query: []) }
        // absolute-form (RFC 9112 §3.2.2): servers must accept it; only the path matters here.
        if target.hasPrefix("http://") || target.hasPrefix("https://") {
            let afterScheme = target[target.index(target.firstIndex(of: ":") ?? target.startIndex, offsetBy: 3)...]
            target = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? "/"
        }
        guard target.first == "/" else {
            throw .badRequest("INVALID_PATH", "The request target must be an absolute path starting with '/'.")
        }
        if target.contains("#") {
            throw .badRequest("INVALID_PATH", "The request target must not contain a fragment ('#').")
        }
        let pathPart: Substring
        let queryPart: Substring?
        if let mark = target.firstIndex(of: "?") {
            pathPart = target[..<mark]
            queryPart = target[target.index(after: mark)...]
        } else {
            pathPart = target
            queryPart = nil
        }
        let segments = try decodeSegments(pathPart)
        let query = try queryPart.map { q throws(HTTPError) in try parseQuery(q) } ?? []
        return RequestTarget(path: String(pathPart), segments: segments, query: query)
    }

    static func decodeSegments(_ path: Substring) throws(HTTPError) -> [String] {
        let rawSegments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        if rawSegments.count == 1 && rawSegments[0].isEmpty { return [] }
        var segments: [String] = []
        segments.reserveCapacity(rawSegments.count)
        for raw in rawSegments {
            let decoded: String
            do {
                decoded = try PercentDecoding.decode(raw.utf8, plusAsSpace: false)
            } catch .malformedEscape {
                throw .badRequest("INVALID_PATH", "The path has a malformed percent-escape.")
            } catch {
                throw .badRequest("INVALID_PATH", "The path is not valid UTF-8 once percent-decoded.")
            }
            if decoded == "." || decoded == ".." {
                throw .badRequest("INVALID_PATH", "The path must not contain dot segments ('.' or '..').")
            }
            if decoded.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
                throw .badRequest("INVALID_PATH", "The path must not contain NUL or other control characters.")
            }
            segments.append(decoded)
        }
        return segments
    }

    static func parseQuery(_ query: Substring) throws(HTTPError) -> [QueryItem] {
        var items: [QueryItem] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            guard items.count < maxQueryItems else {
                throw .badRequest("INVALID_QUERY", "The query string has more than \(maxQueryItems) parameters.")
            }
            let name: Substring
            let value: Substring
            if let equals = pair.firstIndex(of: "=") {
                name = pair[..<equals]
                value = pair[pair.index(after: equals)...]
            } else {
                name = pair
                value = ""
            }
            do {
                let item = QueryItem(
                    name: try PercentDecoding.decode(name.utf8, plusAsSpace: true),
                    value: try PercentDecoding.decode(value.utf8, plusAsSpace: true))
                if item.name.utf8.contains(0) || item.value.utf8.contains(0) {
                    throw HTTPError.badRequest("INVALID_QUERY", "Query parameters must not contain NUL characters.", parameter: item.name)
                }
                items.append(item)
            } catch let error as HTTPError {
                throw error
            } catch PercentDecoding.Failure.malformedEscape {
                throw .badRequest("INVALID_QUERY", "The query string has a malformed percent-escape.")
            } catch {
                throw .badRequest("INVALID_QUERY", "The query string is not valid UTF-8 once percent-decoded.")
            }
        }
        return items
    }
}

/// One decoded `name=value` pair of the query string.
public struct QueryItem: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
