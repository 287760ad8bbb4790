extension JSONWriter {
    /// An object key encoded once (`"name":`), for the keys a page writes for every row: writing
    /// a key from its string escapes it again each time.
    public struct Key: Sendable {
        let encoded: [UInt8]

        public init(_ name: String) {
            encoded = [UInt8(ascii: "\"")] + EscapedText(name).bytes + [UInt8(ascii: "\""), UInt8(ascii: ":")]
        }
    }

    public mutating func key(_ key: Key) {
        buffer.makeUnique()
        separate()
        // From the key's buffer in place: appending the array itself retains and releases it
        // around a generic append.
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
