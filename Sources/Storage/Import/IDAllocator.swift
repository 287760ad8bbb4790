import Domain
import Foundation

/// Server ids for imported items that come without one: time-ordered and unique within a run.
///
/// `EntityID.generate` draws 32 random bits per id; an import makes thousands of ids per
/// millisecond, where random bits alone would collide now and then. Within a millisecond this
/// allocator counts up from a random start instead, so ids stay unique and in creation order.
struct IDAllocator {
    private var last: EntityID?

    mutating func next(_ kind: EntityKind, now: Date = Date()) -> EntityID {
        let milliseconds = UInt64(max(0, (now.timeIntervalSince1970 * 1_000).rounded(.down)))
        let id: EntityID
        if let last, last.timestampMilliseconds >= milliseconds {
            let (bits, overflow) = last.randomBits.addingReportingOverflow(1)
            id = EntityID(
                kind: kind, timestampMilliseconds: last.timestampMilliseconds + (overflow ? 1 : 0), randomBits: overflow ? 0 : bits)
        } else {
            // The top bit stays clear so a millisecond has two billion ids before it overflows.
            id = EntityID(kind: kind, timestampMilliseconds: milliseconds, randomBits: UInt32.random(in: 0..<(1 << 31)))
        }
        last = id
        return id
    }
}
