/// Maps a method and decoded path segments to a handler.
///
/// Templates are written `/v1/:collection/:id`. A literal segment wins over a parameter at the
/// same position, so `/v1/products/changes` beats `/v1/products/:id` for every method: once a
/// path matches a route's template, a method that route lacks is a 405, never a fall-through to
/// a parameter route that would read "changes" as an id. Parameters never match an empty segment.
public struct Router: Sendable {
    public enum Handler: Sendable {
        /// Answers on the libmicrohttpd thread: reads that take microseconds.
        case sync(@Sendable (Request) throws -> Response)
        /// Answers later: the connection is suspended while the handler awaits (writes that wait
        /// for a group commit), so the thread serves other connections meanwhile.
        case async(@Sendable (Request) async throws -> Response)
    }

    /// Whether a route's method exists for these parameters: a write route of a collection the
    /// server keeps (`writable: false`) does not, so its `Allow` lists and 405s say so.
    public typealias Availability = @Sendable (RouteParameters) -> Bool

    public enum Match: Sendable {
        case found(Handler, parameters: RouteParameters, template: String, routeIndex: Int)
        /// The path exists; the method does not. `allowed` is what the `Allow` header says.
        case methodNotAllowed(allowed: [String], template: String, routeIndex: Int)
        case notFound
    }

    final class Node: @unchecked Sendable {
        // Mutated only while routes are registered, before the router is shared.
        var literals: [String: Node] = [:]
        /// The same children in a list while they are few: comparing a path's short segments
        /// with `==` costs less than hashing them.
        var literalList: [(segment: String, node: Node)] = []
        var parameter: (name: String, node: Node)?
        /// By `HTTPMethod.index`: a method's hash is its name's, hashed per lookup.
        var handlers = [Handler?](repeating: nil, count: HTTPMethod.allCases.count)
        var availability = [Availability?](repeating: nil, count: HTTPMethod.allCases.count)
        var hasHandlers = false
        var template = ""
        /// Small integer naming the template, for allocation-free metric lookups.
        var routeIndex = -1

        /// The handler of `method` when the route has one and it exists for `parameters`.
        func handler(_ method: HTTPMethod, _ parameters: RouteParameters) -> Handler? {
            guard let handler = handlers[method.index] else { return nil }
            if let available = availability[method.index], !available(parameters) { return nil }
            return handler
        }

        func copy() -> Node {
            let node = Node()
            node.literals = literals.mapValues { $0.copy() }
            node.literalList = node.literals.map { ($0.key, $0.value) }
            node.parameter = parameter.map { ($0.name, $0.node.copy()) }
            node.handlers = handlers
            node.availability = availability
            node.hasHandlers = hasHandlers
            node.template = template
            node.routeIndex = routeIndex
            return node
        }
    }

    private var root = Node()
    public private(set) var templates: [(method: HTTPMethod, template: String)] = []
    /// Distinct templates registered; route indexes run from 0 to this.
    public private(set) var routeCount = 0

    public init() {}

    public mutating func get(_ template: String, _ handler: @escaping @Sendable (Request) throws -> Response) {
        add(.GET, template, .sync(handler))
    }

    /// Adds a route; `available` (nil: always) says for which parameters the method exists.
    public mutating func add(_ method: HTTPMethod, _ template: String, _ handler: Handler, available: Availability? = nil) {
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        var node = root
        for segment in template.split(separator: "/") {
            if segment.hasPrefix(":") {
                let name = String(segment.dropFirst())
                if let existing = node.parameter {
                    precondition(existing.name == name, "conflicting parameter names at \(template)")
                    node = existing.node
                } else {
                    let child = Node()
                    node.parameter = (name, child)
                    node = child
                }
            } else {
                let key = String(segment)
                if let child = node.literals[key] {
                    node = child
                } else {
                    let child = Node()
                    node.literals[key] = child
                    node.literalList.append((key, child))
                    node = child
                }
            }
        }
        node.handlers[method.index] = handler
        node.availability[method.index] = available
        node.hasHandlers = true
        if node.routeIndex < 0 {
            node.routeIndex = routeCount
            routeCount += 1
        }
        node.template = template
        templates.append((method, template))
    }

    public func match(_ method: HTTPMethod, _ segments: [String]) -> Match {
        var parameters = RouteParameters()
        guard let node = Self.find(root, segments[...], &parameters) else { return .notFound }
        if let handler = node.handler(method, parameters) {
            return .found(handler, parameters: parameters, template: node.template, routeIndex: node.routeIndex)
        }
        if method == .HEAD, let handler = node.handler(.GET, parameters) {
            return .found(handler, parameters: parameters, template: node.template, routeIndex: node.routeIndex)
        }
        return .methodNotAllowed(allowed: Self.allowed(node, parameters), template: node.template, routeIndex: node.routeIndex)
    }

    /// The methods a path allows, for `Allow` and CORS preflights; nil when the path is unknown.
    public func allowedMethods(_ segments: [String]) -> [String]? {
        var parameters = RouteParameters()
        return Self.find(root, segments[...], &parameters).map { Self.allowed($0, parameters) }
    }

    private static func allowed(_ node: Node, _ parameters: RouteParameters) -> [String] {
        var methods = Set(HTTPMethod.allCases.filter { node.handler($0, parameters) != nil })
        if methods.contains(.GET) { methods.insert(.HEAD) }
        methods.insert(.OPTIONS)
        return HTTPMethod.allCases.filter(methods.contains).map(\.rawValue)
    }

    private static func literal(_ segment: String, of node: Node) -> Node? {
        guard node.literalList.count <= maxListedLiterals else { return node.literals[segment] }
        for entry in node.literalList where entry.segment == segment { return entry.node }
        return nil
    }

    /// Children past which a node's literals are found by hashing.
    static let maxListedLiterals = 12

    private static func find(_ node: Node, _ segments: ArraySlice<String>, _ parameters: inout RouteParameters) -> Node? {
        guard let segment = segments.first else {
            return node.hasHandlers ? node : nil
        }
        let rest = segments.dropFirst()
        if let literal = Self.literal(segment, of: node), let found = find(literal, rest, &parameters) {
            return found
        }
        if let (name, child) = node.parameter, !segment.isEmpty, let found = find(child, rest, &parameters) {
            parameters.set(name, segment)
            return found
        }
        return nil
    }
}
