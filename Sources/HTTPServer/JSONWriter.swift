/// Appends JSON to a byte buffer without intermediate values.
///
/// Response bodies are written straight into `[UInt8]`: no `Encodable` boxing, no dictionary
/// that loses key order, and `/` is not escaped. The caller is responsible for well-formed
/// nesting (objects and arrays opened and closed in order); `comma` bookkeeping is done here.
public struct JSONWriter: Sendable {
    public internal(set) var bytes: [UInt8]
    var needsComma = false

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes `"name":`; the next value call writes the value.
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    /// `first` and `second` as one string (a link: a base and an id), without making it.
    public mutating func string(_ first: String, _ second: String) {
        beginString()
        appendUnquoted(first)
        appendUnquoted(second)
        endString()
    }

    /// A string from its UTF-8 bytes, which the caller has checked are well-formed (a stored
    /// text written from the store's buffer, without making a `String`).
    public mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        beginString()
        appendEscaped(utf8)
        endString()
    }

    /// `first` followed by well-formed UTF-8 `second` as one string (a link: a base and an id).
    public mutating func string(_ first: String, utf8 second: UnsafeBufferPointer<UInt8>) {
        beginString()
        appendUnquoted(first)
        appendEscaped(second)
        endString()
    }

    /// Opens a string written in pieces (`appendToString`, then `endString`).
    public mutating func beginString() {
        separate()
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends to the open string.
    public mutating func appendToString(_ piece: String) {
        appendUnquoted(piece)
    }

    /// Appends well-formed UTF-8 to the open string.
    public mutating func appendToString(utf8 piece: UnsafeBufferPointer<UInt8>) {
        appendEscaped(piece)
    }

    public mutating func endString() {
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A string, or `null` when absent: rows keep a constant shape.
    public mutating func stringOrNull(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    public mutating func int(_ value: Int) {
        separate()
        Self.appendDecimal(Int64(value), to: &bytes)
        needsComma = true
    }

    public mutating func int64(_ value: Int64) {
        separate()
        Self.appendDecimal(value, to: &bytes)
        needsComma = true
    }

    /// `value` in decimal digits, written in place: `String(value)` and its UTF-8 view cost
    /// ~600 instructions a number (the access log writes three per line).
    public static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    public mutating func double(_ value: Double) {
        separate()
        if value.isFinite {
            bytes.append(contentsOf: String(value).utf8)
        } else {
            bytes.append(contentsOf: "null".utf8)
        }
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// Inserts bytes that are already a complete JSON value (a cached fragment).
    public mutating func raw(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    /// Convenience: `"name": "value"`.
    public mutating func field(_ name: String, _ value: String?) {
        key(name)
        stringOrNull(value)
    }

    public mutating func field(_ name: String, _ value: Int) {
        key(name)
        int(value)
    }

    public mutating func field(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// Where the writer is, to come back to (`rewind(to:)`).
    public struct Mark: Sendable {
        let count: Int
        let needsComma: Bool
    }

    public func mark() -> Mark { Mark(count: bytes.count, needsComma: needsComma) }

    /// Forgets what was written since `mark`.
    public mutating func rewind(to mark: Mark) {
        bytes.removeSubrange(min(mark.count, bytes.count)...)
        needsComma = mark.needsComma
    }

    mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// Copies runs of bytes that need no escaping in one go: a page of rows is mostly such
    /// runs, and appending byte by byte made string writing the costliest part of a page.
    private mutating func appendQuoted(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        appendUnquoted(value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Native and small strings lend their bytes in place; copying the string first (for
    /// `withUTF8`, which mutates) cost a retain and a release per string of a page. (Checking
    /// `utf8.contains(where:)` first and appending the view whole cost ~950 instructions a
    /// string: the generic iteration is not specialized.)
    private mutating func appendUnquoted(_ value: String) {
        if value.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
            var copy = value
            copy.withUTF8 { appendEscaped($0) }
        }
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
    }

    /// Whether any of a word's 8 bytes may need escaping: exact when none does, and a word it
    /// flags wrongly (a borrow past a byte of 0x80 or more) is only looked at byte by byte.
    /// Eight bytes a step: byte by byte, scanning was the costliest part of writing a page.
    @inline(__always)
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let control = (word &- ones &* 0x20) & ~word & highs
        let special = hasZeroByte(word ^ (ones &* 0x22)) | hasZeroByte(word ^ (ones &* 0x5C)) | hasZeroByte(word ^ (ones &* 0x7F))
        return control | special != 0
    }

    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let base = utf8.baseAddress else { return }
        let count = utf8.count
        var runStart = 0
        var index = 0
        while index < count {
            if index + 8 <= count, !Self.mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let end = min(index + 8, count)
            while index < end {
                let byte = base[index]
                if Self.needsEscape(byte) {
                    if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart)) }
                    appendEscape(byte)
                    runStart = index + 1
                }
                index += 1
            }
        }
        if runStart < count { bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart)) }
    }

    private mutating func appendEscape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex = HexDigits.lowercase
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
        }
    }
}
