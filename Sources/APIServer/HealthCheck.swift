/// One thing `/health` verifies: a name and a probe that throws when it fails.
public struct HealthCheck: Sendable {
    public var name: String
    public var probe: @Sendable () throws -> Void

    public init(name: String, probe: @escaping @Sendable () throws -> Void) {
        self.name = name
        self.probe = probe
    }
}
