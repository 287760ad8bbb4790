import Synchronization

/// Request ids: the client's `X-Request-ID` when it is safe to echo and log, else a new one.
public enum RequestID {
    /// Longest accepted client id; longer ones are replaced, not truncated.
    static let maxLength = 128

    private static let counter = Atomic<UInt64>(0)
    /// Distinguishes processes, so ids from two runs never collide in a log.
    private static let prefix: String = {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt32
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 8 - hex.utf8.count) + hex
    }()

    /// The client's id when every byte is visible ASCII without quotes or backslashes.
    public static func accept(_ candidate: String?) -> String? {
        guard let candidate, !candidate.isEmpty, candidate.utf8.count <= maxLength else { return nil }
        let safe = candidate.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        return safe ? candidate : nil
    }

    public static func generate() -> String {
        let n = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return prefix + "-" + String(n, radix: 16)
    }
}
