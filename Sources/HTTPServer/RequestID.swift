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

    /// `prefix-counter` in lowercase hex, written into the string directly: `String(_:radix:)`
    /// and two concatenations cost more than the rest of the id on every request.
    public static func generate() -> String {
        make(counter: counter.wrappingAdd(1, ordering: .relaxed).newValue)
    }

    static func make(counter n: UInt64) -> String {
        let digits = max(1, (UInt64.bitWidth - n.leadingZeroBitCount + 3) / 4)
        let head = head
        return String(unsafeUninitializedCapacity: head.count + digits) { buffer in
            _ = buffer.initialize(fromContentsOf: head)
            var value = n
            for index in stride(from: head.count + digits - 1, through: head.count, by: -1) {
                buffer[index] = HexDigits.lowercase[Int(value & 0xF)]
                value >>= 4
            }
            return head.count + digits
        }
    }

    /// The prefix and its dash as bytes, made once.
    private static let head: [UInt8] = Array((prefix + "-").utf8)
}
