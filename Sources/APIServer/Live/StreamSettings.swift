/// How a server streams lists as server-sent events (`rowserver serve --max-streams`,
/// `--stream-heartbeat`).
public struct StreamSettings: Sendable {
    /// Streams open at once at most; beyond them a stream is answered 503 with `Retry-After`.
    public var maximum: Int
    /// Seconds between the comment lines an idle stream gets.
    public var heartbeat: Double

    public init(maximum: Int = 1_000, heartbeat: Double = 15) {
        self.maximum = maximum
        self.heartbeat = heartbeat
    }
}
