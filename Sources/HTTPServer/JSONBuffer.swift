/// The bytes a `JSONWriter` appends to: one capacity check and one copy a run of bytes.
///
/// `[UInt8].append(contentsOf:)` is generic over the sequence and checks uniqueness itself on
/// every call (one per key and string run). `JSONWriter` makes the bytes its own once per value it writes
/// (`makeUnique`) and then appends here directly. The position is kept in this struct, not in
/// the class that owns the memory: a class's stored `var`s are checked for exclusive access at
/// run time on every append.
///
/// `@unchecked Sendable`: the bytes are written only after `makeUnique`, when no other copy
/// shares them (copy on write, as `Array`).
struct JSONBuffer: @unchecked Sendable {
    /// Owns the memory: frees it when the last buffer sharing it goes.
    private final class Allocation {
        let start: UnsafeMutablePointer<UInt8>

        init(capacity: Int) {
            start = .allocate(capacity: capacity)
        }

        deinit { start.deallocate() }
    }

    private var allocation: Allocation
    private var start: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        allocation = Allocation(capacity: self.capacity)
        start = allocation.start
    }

    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(allocation) { try body(UnsafeRawBufferPointer(start: start, count: count)) }
    }

    /// Copies the bytes when another buffer shares them; call before appending.
    @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&allocation) { reallocate(capacity: capacity) }
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { reallocate(toHold: count + 1) }
        start[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress else { return }
        append(base, count: source.count)
    }

    @inline(__always)
    mutating func append(_ source: UnsafePointer<UInt8>, count added: Int) {
        if count + added > capacity { reallocate(toHold: count + added) }
        if added <= 16 {
            Self.copyShort(source, to: start + count, count: added)
        } else {
            (start + count).initialize(from: source, count: added)
        }
        count += added
    }

    /// Up to 16 bytes without a call to memcpy (most keys and values of a page are that short):
    /// two loads and stores that overlap cover 8 to 16 bytes, two of 4 bytes cover 4 to 7.
    @inline(__always)
    private static func copyShort(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(target)
        if count >= 8 {
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        } else if count > 0 {
            target[0] = source[0]
            target[count / 2] = source[count / 2]
            target[count - 1] = source[count - 1]
        }
    }

    mutating func append(_ array: [UInt8]) {
        array.withUnsafeBufferPointer { append($0) }
    }

    /// Forgets every byte from `newCount` on.
    mutating func truncate(to newCount: Int) {
        count = max(0, min(newCount, count))
    }

    /// Appends `added` bytes copied from this buffer's own `offset` (`offset + added` at most
    /// `count`: bytes written earlier).
    mutating func appendCopy(from offset: Int, count added: Int) {
        if count + added > capacity { reallocate(toHold: count + added) }
        (start + count).update(from: start + offset, count: added)
        count += added
    }

    /// Lets `body` write up to `room` bytes at the end, and keeps as many as it says it wrote
    /// (nil: none); `escaped`: whether they needed no escaping inside a JSON string.
    mutating func append(room: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Int?) -> (written: Int, escaped: Bool)? {
        if count + room > capacity { reallocate(toHold: count + room) }
        guard let said = body(UnsafeMutableBufferPointer(start: start + count, count: room)) else { return nil }
        let written = min(max(said, 0), room)
        let escaped = JSONWriter.needsNoEscape(UnsafePointer(start + count), count: written)
        count += written
        return (written, escaped)
    }

    mutating func reserveCapacity(_ needed: Int) {
        if needed > capacity { reallocate(capacity: needed) }
    }

    @inline(never)
    private mutating func reallocate(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        reallocate(capacity: newCapacity)
    }

    private mutating func reallocate(capacity newCapacity: Int) {
        let moved = Allocation(capacity: newCapacity)
        moved.start.initialize(from: start, count: count)
        allocation = moved
        start = moved.start
        capacity = newCapacity
    }
}
