extension JSONWriter {
    /// An object key encoded once (`"name":`), for the keys a page writes for every row: writing
    /// a key from its string escapes it again each time, which cost about 7 % of an uncached page.
    public struct Key: Sendable {
        let encoded: [UInt8]

        public init(_ name: String) {
            var writer = JSONWriter(capacity: name.utf8.count + 3)
            writer.string(name)
            encoded = writer.bytes + [UInt8(ascii: ":")]
        }
    }

    public mutating func key(_ key: Key) {
        buffer.makeUnique()
        separate()
        // From the key's buffer in place: appending the array itself retained and released it
        // around a generic append (175 instructions a key; a table page writes 450 of them).
        key.encoded.withUnsafeBufferPointer { buffer.append($0) }
        needsComma = false
    }

    /// `"name": "value"`, or `"name": null`.
    public mutating func field(_ key: Key, _ value: String?) {
        self.key(key)
        stringOrNull(value)
    }

    /// `"name": 42`.
    public mutating func field(_ key: Key, _ value: Int) {
        self.key(key)
        int(value)
    }
}
