/// An ordered list of header fields with case-insensitive name lookup.
///
/// Kept as a flat array: requests carry a handful of headers, and a linear scan with an ASCII
/// case-insensitive compare beats hashing at that size.
public struct HTTPHeaders: Sendable, Equatable, Sequence {
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var fields: [Field]

    public init(_ pairs: [(String, String)] = []) {
        fields = []
        // Room for what a response usually gets added later (request id, caching, CORS).
        fields.reserveCapacity(pairs.count + 6)
        for (name, value) in pairs { fields.append(Field(name: name, value: value)) }
    }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        fields.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.compactMap { $0.name.equalsIgnoringASCIICase(name) ? $0.value : nil }
    }

    /// How many fields are called `name`; no array, unlike `values(_:).count`.
    public func count(of name: String) -> Int {
        var count = 0
        for field in fields where field.name.equalsIgnoringASCIICase(name) { count += 1 }
        return count
    }

    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        // Usually absent: a scan is cheaper than `removeAll`'s partition.
        if contains(name) { remove(name) }
        fields.append(Field(name: name, value: value))
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }
}

extension String {
    /// ASCII case-insensitive equality, the comparison HTTP field names use (RFC 9110 §5.1).
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        // Most lookups compare against names of another length: O(1) for native strings.
        guard utf8.count == other.utf8.count else { return false }
        // Over the bytes in place (native and small strings have them): a byte iterator per
        // string cost more than the header lookups of a cached answer needed.
        let compared = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in ASCIICase.equal(mine, theirs) }
        }
        if let compared, let compared { return compared }
        return ASCIICase.equal(Array(utf8), Array(other.utf8))
    }
}

/// Byte comparisons that fold ASCII letters only.
enum ASCIICase {
    static func equal<Bytes: RandomAccessCollection<UInt8>>(_ a: Bytes, _ b: Bytes) -> Bool where Bytes.Index == Int {
        guard a.count == b.count else { return false }
        return hasPrefix(a, b)
    }

    /// Whether `text` starts with `prefix`, ignoring the case of ASCII letters.
    static func hasPrefix<Text: RandomAccessCollection<UInt8>, Prefix: RandomAccessCollection<UInt8>>(
        _ text: Text, _ prefix: Prefix
    ) -> Bool where Text.Index == Int, Prefix.Index == Int {
        guard text.count >= prefix.count else { return false }
        for offset in 0..<prefix.count {
            let x = text[text.startIndex + offset]
            let y = prefix[prefix.startIndex + offset]
            if x == y { continue }
            guard x | 0x20 == y | 0x20 else { return false }
            let lower = x | 0x20
            guard lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") else { return false }
        }
        return true
    }
}
