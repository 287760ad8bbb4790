import Foundation

extension EntityID {
    /// A new id of `kind` stamped `milliseconds` after the Unix epoch, with 32 bits from `generator`.
    ///
    /// Negative timestamps clamp to 0 and timestamps past 48 bits (year 10889) clamp to the
    /// maximum. Ids made in the same millisecond order randomly among themselves; uniqueness
    /// within a millisecond rests on the 32 random bits (the demo generator uses one
    /// millisecond per entity instead, which makes its ids unique by construction).
    public static func generate(
        kind: EntityKind,
        at milliseconds: Int64,
        using generator: inout some RandomNumberGenerator
    ) -> EntityID {
        EntityID(
            kind: kind,
            timestampMilliseconds: UInt64(clamping: max(0, milliseconds)),
            randomBits: UInt32(truncatingIfNeeded: generator.next())
        )
    }

    /// A new id of `kind` stamped now, with random bits from the system generator.
    public static func generate(kind: EntityKind) -> EntityID {
        var generator = SystemRandomNumberGenerator()
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        return generate(kind: kind, at: now, using: &generator)
    }
}
