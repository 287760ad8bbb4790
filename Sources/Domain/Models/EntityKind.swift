/// The kind of entity an ``EntityID`` names: the id's three-letter prefix, e.g. `prd`.
///
/// The prefix makes an id self-describing in logs and URLs (`prd_…` can never be mistaken for
/// `per_…`), and lets the API reject an id of the wrong kind before touching storage. A
/// collection definition declares its prefix, so the set of kinds is open: any three lowercase
/// ASCII letters. Stored as three bytes, so comparing and hashing never touch a `String`.
public struct EntityKind: Hashable, Sendable, Comparable, CustomStringConvertible {
    let a: UInt8
    let b: UInt8
    let c: UInt8

    /// The kind with this prefix; nil unless it is exactly three letters `a`…`z`.
    public init?(prefix: String) {
        let bytes = Array(prefix.utf8)
        guard bytes.count == 3, let kind = Self.matching(prefix: bytes[0], bytes[1], bytes[2]) else { return nil }
        self = kind
    }

    private init(_ a: UInt8, _ b: UInt8, _ c: UInt8) {
        self.a = a
        self.b = b
        self.c = c
    }

    /// The kind whose prefix is these three bytes, when they are lowercase ASCII letters.
    static func matching(prefix a: UInt8, _ b: UInt8, _ c: UInt8) -> EntityKind? {
        let letters = UInt8(ascii: "a")...UInt8(ascii: "z")
        guard letters.contains(a), letters.contains(b), letters.contains(c) else { return nil }
        return EntityKind(a, b, c)
    }

    /// The prefix, e.g. `prd`.
    public var rawValue: String { String(decoding: [a, b, c], as: UTF8.self) }

    public var description: String { rawValue }

    var prefixBytes: (UInt8, UInt8, UInt8) { (a, b, c) }

    /// Orders as the prefixes' strings do (they are ASCII, so bytewise).
    public static func < (lhs: EntityKind, rhs: EntityKind) -> Bool {
        (lhs.a, lhs.b, lhs.c) < (rhs.a, rhs.b, rhs.c)
    }
}
