/// A small, fast, seedable generator (SplitMix64) for generated data: `SampleGenerator`'s and the demo's.
///
/// Generated data must be identical for the same seed on every run and toolchain, so the
/// generator never touches the system generator, and ``next(below:)`` is implemented here
/// rather than relying on the standard library's `random(in:using:)`, whose algorithm may change.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// An independent stream for one part of the data, so adding products never shifts people.
    public init(seed: UInt64, stream: UInt64) {
        var mixer = SeededRandom(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        state = mixer.next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `0..<bound` (Lemire's multiply-shift with rejection); 0 when `bound` ≤ 1.
    public mutating func next(below bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        let limit = UInt64(bound)
        var product = next().multipliedFullWidth(by: limit)
        if product.low < limit {
            let threshold = (0 &- limit) % limit
            while product.low < threshold { product = next().multipliedFullWidth(by: limit) }
        }
        return Int(product.high)
    }

    /// A uniform integer in `range`.
    public mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + next(below: range.upperBound - range.lowerBound + 1)
    }

    /// A uniform `Double` in `0..<1` with 53 random bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// An element of a non-empty array.
    public mutating func pick<T>(_ elements: [T]) -> T {
        elements[next(below: elements.count)]
    }

    /// True with probability `percent`/100.
    public mutating func chance(_ percent: Int) -> Bool {
        next(below: 100) < percent
    }
}
