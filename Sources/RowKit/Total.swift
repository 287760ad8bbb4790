/// How many rows a counted list (or one of its sections) holds: exact, or the server's estimate.
public struct Total: Codable, Hashable, Sendable {
    public var value: Int
    /// False for an estimate (a list past the count's bound): show it as "about".
    public var exact: Bool

    public init(value: Int, exact: Bool) {
        self.value = value
        self.exact = exact
    }
}

/// A section's count as a feed carries it.
public struct SectionCount: Codable, Hashable, Sendable {
    public var id: String
    public var count: Total
}
