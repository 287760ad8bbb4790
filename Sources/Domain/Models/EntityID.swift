/// A server-assigned identifier: `prefix_` plus 16 lowercase Crockford base32 digits.
///
/// The 80-bit body is a 48-bit Unix timestamp in milliseconds followed by 32 random bits, so
/// ids are time-ordered (inserts land at the end of a B-tree) and comparing ids, or their raw
/// strings, orders them by creation time. Ids never derive from a mutable field: editing a
/// model keeps its id. The value is stored as integers (16 bytes), which keeps hashing and
/// equality cheap; ``rawValue`` spells it out on demand.
public struct EntityID: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// Length of every raw value: three-letter prefix, underscore, 16 digits.
    public static let rawLength = 20

    public let kind: EntityKind
    /// Milliseconds since 1970-01-01T00:00:00Z, 48 bits.
    public let timestampMilliseconds: UInt64
    public let randomBits: UInt32

    /// Builds an id from its parts; timestamps beyond 48 bits are clamped to the largest one.
    public init(kind: EntityKind, timestampMilliseconds: UInt64, randomBits: UInt32) {
        self.kind = kind
        self.timestampMilliseconds = min(timestampMilliseconds, Self.maxTimestamp)
        self.randomBits = randomBits
    }

    static let maxTimestamp: UInt64 = (1 << 48) - 1

    /// Parses a raw id of any kind; nil for a wrong length, a prefix that is not three letters, or a non-canonical digit.
    public init?(parsing text: String) {
        guard let parsed = Self.parse(text, kind: nil) else { return nil }
        self = parsed
    }

    /// Parses a raw id that must be of `kind`; nil for any other kind or malformed input.
    public init?(parsing text: String, kind: EntityKind) {
        guard let parsed = Self.parse(text, kind: kind) else { return nil }
        self = parsed
    }

    /// Parses a raw id from its UTF-8 bytes (a database column read in place), of `kind` when
    /// given; nil for any other kind or malformed input.
    public init?(parsingUTF8 bytes: UnsafeBufferPointer<UInt8>, kind: EntityKind?) {
        guard let parsed = Self.parse(bytes, kind: kind) else { return nil }
        self = parsed
    }

    private static func parse(_ text: String, kind expected: EntityKind?) -> EntityID? {
        var text = text
        return text.withUTF8 { parse($0, kind: expected) }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, kind expected: EntityKind?) -> EntityID? {
        guard bytes.count == rawLength, let kind = EntityKind.matching(prefix: bytes[0], bytes[1], bytes[2]),
            expected == nil || expected == kind, bytes[3] == UInt8(ascii: "_")
        else { return nil }
        // The 80 bits as the first 4 digits (20 bits) and the last 12 (60 bits), digits looked up
        // in a table and checked once at the end: a page parses an id per row.
        let parts: (top: UInt64, rest: UInt64, invalid: UInt8) = Crockford32.values.withUnsafeBufferPointer { values in
            var top: UInt64 = 0
            var rest: UInt64 = 0
            var seen: UInt8 = 0
            for index in 4..<8 {
                let digit = values[Int(bytes[index])]
                seen |= digit
                top = top << 5 | UInt64(digit)
            }
            for index in 8..<rawLength {
                let digit = values[Int(bytes[index])]
                seen |= digit
                rest = rest << 5 | UInt64(digit)
            }
            return (top, rest, seen & 0x80)
        }
        guard parts.invalid == 0 else { return nil }
        return EntityID(
            kind: kind,
            timestampMilliseconds: parts.top << 28 | parts.rest >> 32,
            randomBits: UInt32(truncatingIfNeeded: parts.rest)
        )
    }

    /// The canonical spelling, e.g. `prd_01k2m3n4p5q6r7s8`.
    public var rawValue: String {
        String(unsafeUninitializedCapacity: Self.rawLength) { buffer in
            let prefix = kind.prefixBytes
            buffer[0] = prefix.0
            buffer[1] = prefix.1
            buffer[2] = prefix.2
            buffer[3] = UInt8(ascii: "_")
            let high = timestampMilliseconds >> 32
            let low = (timestampMilliseconds << 32) | UInt64(randomBits)
            Crockford32.encode(high: high, low: low, into: buffer, at: 4)
            return Self.rawLength
        }
    }

    public var description: String { rawValue }

    /// Hashes three integers rather than the kind's raw string, keeping ids cheap to hash.
    public func hash(into hasher: inout Hasher) {
        let prefix = kind.prefixBytes
        hasher.combine(UInt32(prefix.0) << 16 | UInt32(prefix.1) << 8 | UInt32(prefix.2))
        hasher.combine(timestampMilliseconds)
        hasher.combine(randomBits)
    }

    /// Same order as comparing raw values as strings: prefix, then timestamp, then random bits.
    public static func < (lhs: EntityID, rhs: EntityID) -> Bool {
        if lhs.kind != rhs.kind { return lhs.kind < rhs.kind }
        if lhs.timestampMilliseconds != rhs.timestampMilliseconds {
            return lhs.timestampMilliseconds < rhs.timestampMilliseconds
        }
        return lhs.randomBits < rhs.randomBits
    }
}

extension EntityID: Codable {
    /// Decodes the raw string form; a malformed id is a decoding error that names the value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = EntityID(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Invalid id \"\(text)\"")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
