/// Appends JSON to a byte buffer without intermediate values.
///
/// Response bodies are written straight into bytes: no `Encodable` boxing, no dictionary
/// that loses key order, and `/` is not escaped. The caller is responsible for well-formed
/// nesting (objects and arrays opened and closed in order); `comma` bookkeeping is done here.
///
/// A value type over a `JSONBuffer`, copied on write: each call that writes checks once that
/// the buffer is its own (`JSONBuffer.makeUnique`), then appends to it without `Array`'s checks per append.
public struct JSONWriter: Sendable {
    var buffer: JSONBuffer
    var needsComma = false

    public init(capacity: Int = 256) {
        buffer = JSONBuffer(capacity: capacity)
    }

    /// What was written, as an array (one copy).
    public var bytes: [UInt8] { buffer.bytes }

    /// Makes room for `capacity` bytes in all, so that writing up to that many does not grow
    /// the buffer again.
    public mutating func reserveCapacity(_ capacity: Int) {
        buffer.makeUnique()
        buffer.reserveCapacity(capacity)
    }

    public mutating func beginObject() {
        buffer.makeUnique()
        separate()
        buffer.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        buffer.makeUnique()
        buffer.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        buffer.makeUnique()
        separate()
        buffer.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        buffer.makeUnique()
        buffer.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes `"name":`; the next value call writes the value.
    public mutating func key(_ name: String) {
        buffer.makeUnique()
        separate()
        Self.appendQuoted(name, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) {
        buffer.makeUnique()
        separate()
        Self.appendQuoted(value, to: &buffer)
        needsComma = true
    }

    /// `first` and `second` as one string (a link: a base and an id), without making it.
    public mutating func string(_ first: String, _ second: String) {
        beginString()
        Self.appendUnquoted(first, to: &buffer)
        Self.appendUnquoted(second, to: &buffer)
        endString()
    }

    /// A string of bytes copied without the escape check: only for text whose every byte is
    /// known to need none (an id that parsed as an `EntityID`: lowercase letters, digits, `_`).
    /// A page writes two ids a row.
    public mutating func string(verbatim bytes: UnsafeBufferPointer<UInt8>) {
        beginString()
        buffer.append(bytes)
        endString()
    }

    /// `first` followed by `second`, bytes that need no escape (`string(verbatim:)`), as one
    /// string (a detail link: its base and an id).
    public mutating func string(_ first: String, verbatim second: UnsafeBufferPointer<UInt8>) {
        beginString()
        Self.appendUnquoted(first, to: &buffer)
        buffer.append(second)
        endString()
    }

    /// Opens a string written in pieces (`appendToString`, then `endString`).
    public mutating func beginString() {
        buffer.makeUnique()
        separate()
        buffer.append(UInt8(ascii: "\""))
    }

    /// Appends to the open string.
    public mutating func appendToString(_ piece: String) {
        buffer.makeUnique()
        Self.appendUnquoted(piece, to: &buffer)
    }

    /// Appends well-formed UTF-8 to the open string.
    public mutating func appendToString(utf8 piece: UnsafeBufferPointer<UInt8>) {
        buffer.makeUnique()
        Self.appendEscaped(piece, to: &buffer)
    }

    public mutating func endString() {
        buffer.makeUnique()
        buffer.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A string, or `null` when absent: rows keep a constant shape.
    public mutating func stringOrNull(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    public mutating func int(_ value: Int) {
        int64(Int64(value))
    }

    public mutating func int64(_ value: Int64) {
        buffer.makeUnique()
        separate()
        Self.withDecimal(value) { buffer.append($0) }
        needsComma = true
    }

    /// `value` in decimal digits, written in place rather than through `String(value)`: cache
    /// keys and tags write a version each.
    public static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        withDecimal(value) { bytes.append(contentsOf: $0) }
    }

    private static func withDecimal(_ value: Int64, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = value.magnitude
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                digits[start] = UInt8(ascii: "-")
            }
            body(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    public mutating func double(_ value: Double) { literal(value.isFinite ? String(value) : "null") }

    public mutating func bool(_ value: Bool) { literal(value ? "true" : "false") }

    public mutating func null() { literal("null") }

    /// A value written as it is: a number or a keyword.
    private mutating func literal(_ text: String) {
        buffer.makeUnique()
        separate()
        Self.appendUnquoted(text, to: &buffer)
        needsComma = true
    }

    /// Inserts bytes that are already a complete JSON value (a cached fragment).
    public mutating func raw(_ json: [UInt8]) {
        buffer.makeUnique()
        separate()
        buffer.append(json)
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

    public func mark() -> Mark { Mark(count: buffer.count, needsComma: needsComma) }

    /// Forgets what was written since `mark`.
    public mutating func rewind(to mark: Mark) {
        buffer.makeUnique()
        buffer.truncate(to: mark.count)
        needsComma = mark.needsComma
    }

    @inline(__always)
    mutating func separate() {
        if needsComma { buffer.append(UInt8(ascii: ",")) }
    }

    /// Copies runs of bytes that need no escaping in one go: a page of rows is mostly such
    /// runs, and appending byte by byte made string writing the costliest part of a page.
    private static func appendQuoted(_ value: String, to out: inout JSONBuffer) {
        out.append(UInt8(ascii: "\""))
        appendUnquoted(value, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// Native and small strings lend their bytes in place; copying the string first (for
    /// `withUTF8`, which mutates) costs a retain and a release per string of a page, and the
    /// generic iteration of `utf8` is not specialized.
    private static func appendUnquoted(_ value: String, to out: inout JSONBuffer) {
        if value.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, to: &out) }) == nil {
            var copy = value
            copy.withUTF8 { appendEscaped($0, to: &out) }
        }
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
    }

    /// Whether any of a word's 8 bytes needs escaping (the has-zero-byte test: a subtraction borrows
    /// only out of a byte that needs it, so the word's answer is exact; a flagged word is then
    /// looked at byte by byte). Eight bytes a step: byte by byte, scanning was the costliest part
    /// of writing a page.
    @inline(__always)
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let control = (word &- ones &* 0x20) & ~word & highs
        let special = hasZeroByte(word ^ (ones &* 0x22)) | hasZeroByte(word ^ (ones &* 0x5C)) | hasZeroByte(word ^ (ones &* 0x7F))
        return control | special != 0
    }

    /// Whether none of `count` bytes at `base` needs escaping: eight bytes a step, the last step
    /// overlapping the one before (or, for fewer than eight, the bytes padded with letters), so a
    /// short text's tail is not looked at byte by byte.
    @inline(__always)
    static func needsNoEscape(_ base: UnsafePointer<UInt8>, count: Int) -> Bool {
        var index = 0
        while index + 8 <= count {
            if mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) { return false }
            index += 8
        }
        if index == count { return true }
        let raw = UnsafeRawPointer(base)
        if count >= 8 { return !mayNeedEscape(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) }
        // Under 8 bytes, without copying them into a word (a call to memcpy): two 4-byte loads
        // that overlap cover 4 to 7, the first, middle and last byte cover 1 to 3; letters pad.
        if count >= 4 {
            let low = UInt64(raw.loadUnaligned(as: UInt32.self))
            let high = UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            return !mayNeedEscape(low | high << 32)
        }
        let word = 0x6161_6161_6100_0000 | UInt64(base[0]) | UInt64(base[count / 2]) << 8 | UInt64(base[count - 1]) << 16
        return !mayNeedEscape(word)
    }

    private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout JSONBuffer) {
        guard let base = utf8.baseAddress else { return }
        let count = utf8.count
        // Most texts need nothing escaped: checked whole first, then copied at once.
        if needsNoEscape(base, count: count) {
            out.append(base, count: count)
            return
        }
        var runStart = 0
        var index = 0
        while index < count {
            if index + 8 <= count, !mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let end = min(index + 8, count)
            while index < end {
                let byte = base[index]
                if needsEscape(byte) {
                    if runStart < index { out.append(base + runStart, count: index - runStart) }
                    appendEscape(byte, to: &out)
                    runStart = index + 1
                }
                index += 1
            }
        }
        if runStart < count { out.append(base + runStart, count: count - runStart) }
    }

    private static func appendEscape(_ byte: UInt8, to out: inout JSONBuffer) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
            let hex = HexDigits.lowercase
            for digit in [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]] {
                out.append(digit)
            }
        }
    }
}
