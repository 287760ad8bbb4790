import DemoData
import Domain

/// Hand-made ids shared by the tests; each id is distinct and easy to read in failures.
enum Fixtures {
    static func id(_ kind: EntityKind, _ n: UInt64) -> EntityID {
        EntityID(kind: kind, timestampMilliseconds: 1_767_225_600_000 + n, randomBits: UInt32(n))
    }

    static let enUS = RenderContext(locale: .enUS)
}
