/// Pieces of a string written without making the string: text escaped once and repeated, text
/// formatted in place, and text copied from earlier in the body.
extension JSONWriter {
    /// Text escaped once for use inside strings (a name every row of a table repeats).
    public struct EscapedText: Sendable {
        let bytes: [UInt8]

        public init(_ text: String) {
            var writer = JSONWriter(capacity: text.utf8.count + 2)
            writer.string(text)
            bytes = Array(writer.bytes.dropFirst().dropLast())
        }
    }

    /// Appends escaped text to the open string as it is.
    public mutating func appendToString(_ text: EscapedText) {
        buffer.makeUnique()
        text.bytes.withUnsafeBufferPointer { buffer.append($0) }
    }

    /// Appends to the open string bytes that need no escape (`string(verbatim:)`: an id).
    public mutating func appendToString(verbatim bytes: UnsafeBufferPointer<UInt8>) {
        buffer.makeUnique()
        buffer.append(bytes)
    }

    /// Appends to the open string what `write` writes into room for `room` bytes (a number
    /// formatted in place): nil, and nothing appended, when `write` returns nil. Bytes that would
    /// need escaping are escaped, so `write` need not know JSON.
    public mutating func appendToString(room: Int, _ write: (UnsafeMutableBufferPointer<UInt8>) -> Int?) -> Int? {
        buffer.makeUnique()
        let start = buffer.count
        guard let appended = buffer.append(room: room, write) else { return nil }
        if !appended.escaped {
            let raw = buffer.withUnsafeBytes { Array($0[start...]) }
            buffer.truncate(to: start)
            raw.withUnsafeBufferPointer { appendToString(utf8: $0) }
        }
        return appended.written
    }

    /// Appends to the open string a copy of bytes written earlier in the body (`range`, as
    /// `count` before and after them), such as a cell a compact line repeats.
    public mutating func appendToString(copyOf range: Range<Int>) {
        buffer.makeUnique()
        precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count, "a copy of bytes not written yet")
        buffer.appendCopy(from: range.lowerBound, count: range.count)
    }
}
