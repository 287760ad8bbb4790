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
        remove(name)
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
        var a = utf8.makeIterator()
        var b = other.utf8.makeIterator()
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return true
            case (let x?, let y?):
                if x == y { continue }
                if x | 0x20 != y | 0x20 { return false }
                let lower = x | 0x20
                if lower < UInt8(ascii: "a") || lower > UInt8(ascii: "z") { return false }
            default: return false
            }
        }
    }
}
