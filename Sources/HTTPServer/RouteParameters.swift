/// The values of a matched route's `:parameter` segments, by name.
///
/// A route has a handful at most, so a short list searched in order beats a dictionary: one
/// allocation per request instead of a hashed table that grows as it is filled.
public struct RouteParameters: Sendable, Equatable {
    private struct Pair: Sendable, Equatable {
        var name: String
        var value: String
    }

    private var pairs: [Pair] = []

    public init() {}

    public init(_ pairs: KeyValuePairs<String, String>) {
        for (name, value) in pairs { set(name, value) }
    }

    /// The value of parameter `name`, or nil when the route has none by that name.
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    public var count: Int { pairs.count }

    mutating func set(_ name: String, _ value: String) {
        if let index = pairs.firstIndex(where: { $0.name == name }) {
            pairs[index].value = value
            return
        }
        if pairs.isEmpty { pairs.reserveCapacity(4) }
        pairs.append(Pair(name: name, value: value))
    }
}
