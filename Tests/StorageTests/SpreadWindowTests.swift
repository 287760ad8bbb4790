import Domain
import Testing

@testable import Storage

/// How rows without room between their neighbours spread out (`SpreadWindow`), as data, and
/// over runs of inserts placed the way `TitleOrder.place` places them.
@Suite struct SpreadWindowTests {
    struct Case {
        let name: String
        let before: [Int64]
        let after: [Int64]
        let fetched: Int
        let expected: SpreadWindow?
    }

    static let cases: [Case] = [
        // Packed on the left, a far row on the right: the window takes the right one only.
        Case(
            name: "room on one side", before: [100, 99, 98], after: [101, 1 << 40], fetched: 64,
            expected: .init(left: 0, right: 1, low: 100, gap: ((1 << 40) - 100) / 3)),
        // Packed on both sides, more rows than fetched: more are needed.
        Case(
            name: "packed past what was fetched", before: Array(stride(from: 1_000, to: 900, by: -1)),
            after: Array(1_001...1_100), fetched: 64, expected: nil),
        // Packed, every row fetched: the last row moves up towards `end`.
        Case(
            name: "the last row moves up", before: [3, 2, 1], after: [4], fetched: 64,
            expected: .init(left: 0, right: 1, low: 3, gap: (TitleOrder.end - 3) / 3)),
        // Packed against the largest ord: the whole order spreads below it.
        Case(
            name: "the whole order", before: [Int64.max - 1, Int64.max - 2], after: [Int64.max], fetched: 64,
            expected: .init(left: 2, right: 1, low: 0, gap: Int64.max / 5)),
    ]

    @Test(arguments: cases) func aWindowIsTheSmallestWithRoomEnough(_ test: Case) {
        let window = SpreadWindow(before: test.before, after: test.after, fetched: test.fetched, lastOrd: test.after.last ?? test.before[0])
        #expect(window == test.expected, "\(test.name)")
    }

    /// A block of 5,000 rows 2 apart among rows 2^22 apart (what windows capped at 2,049 rows
    /// left behind) is spread by a window that reaches out of it, not by one inside it.
    @Test func aPackedBlockIsSpreadByAWindowReachingPastIt() throws {
        let center: Int64 = 1 << 50
        let block = 2_500
        let sparse = 20_000
        let before = (1...block).map { center - 2 * Int64($0) } + (1...sparse).map { center - 2 * Int64(block) - Int64($0) << 22 }
        let after = (1...block).map { center + 2 * Int64($0) - 1 } + (1...sparse).map { center + 2 * Int64(block) + Int64($0) << 22 }
        #expect(SpreadWindow(before: Array(before.prefix(1_025)), after: Array(after.prefix(1_025)), fetched: 1_024, lastOrd: 0) == nil)
        let window = try #require(SpreadWindow(before: Array(before.prefix(16_385)), after: Array(after.prefix(16_385)), fetched: 16_384, lastOrd: 0))
        #expect(window.left > block || window.right > block)
        #expect(window.gap >= 1 << 12)
    }

    /// Ords of rows in order, placed as `TitleOrder.place` places them; counts the rows moved.
    struct Order {
        var ords: [Int64]
        var moved = 0
        var widest = 0

        /// `count` rows `gap` apart, as `TitleOrder.numberAll` numbers them (closer, so that the
        /// rows added fill their gap as a million rows would).
        init(count: Int, gap: Int64) {
            ords = (1...count).map { Int64($0) * gap }
        }

        mutating func insert(at index: Int) {
            let lower = index > 0 ? ords[index - 1] : 0
            let ord = TitleOrder.between(lower, index < ords.count ? ords[index] : nil)
            if ord > lower {
                ords.insert(ord, at: index)
                return
            }
            var fetched = 64
            while true {
                let before = Array(ords[max(0, index - fetched - 1)..<index].reversed())
                let after = Array(ords[index..<min(ords.count, index + fetched + 1)])
                if let window = SpreadWindow(before: before, after: after, fetched: fetched, lastOrd: after.last ?? lower) {
                    ords.insert(0, at: index)
                    for offset in 0...(window.left + window.right) {
                        let position = index - window.left + offset
                        let new = window.low + window.gap * Int64(offset + 1)
                        if position != index && ords[position] != new { moved += 1 }
                        ords[position] = new
                    }
                    widest = max(widest, window.left + window.right + 1)
                    return
                }
                fetched *= 4
            }
        }
    }

    /// Where each row added into the gap goes: after the one added before it, after the same
    /// row each time, anywhere among those added, or where its "Bench N" name sorts.
    enum Pattern: String, CaseIterable {
        case eachAfterTheLast, eachAfterTheSameRow, random, benchNames
    }

    @Test(arguments: Pattern.allCases) func rowsAddedIntoOneGapMoveFewRows(_ pattern: Pattern) {
        var order = Order(count: 2_000, gap: 1 << 30)
        let start = 1_000
        let inserts = 20_000
        var random = SeededRandom(seed: 7)
        // "Bench N" titles in three runs that start again at 1, as `writes.lua` writes them.
        var names: [String] = []
        for step in 0..<inserts {
            let index: Int
            switch pattern {
            case .eachAfterTheLast: index = start + step
            case .eachAfterTheSameRow: index = start
            case .random: index = start + random.next(in: 0...step)
            case .benchNames:
                let name = "Bench \(step % (inserts / 3) + 1)"
                // After every equal name (ids grow), before every greater one.
                var offset = 0
                var end = names.count
                while offset < end {
                    let middle = (offset + end) / 2
                    if names[middle] > name { end = middle } else { offset = middle + 1 }
                }
                names.insert(name, at: offset)
                index = start + offset
            }
            order.insert(at: index)
        }
        #expect(zip(order.ords, order.ords.dropFirst()).allSatisfy { $0 < $1 }, "ords out of order")
        // Windows capped at 2,049 rows (the rule before `SpreadWindow`, modelled in Python on
        // the same inserts) moved 4,541 rows placing random rows and 8,910 placing the names,
        // 2,048 at a time; these move 12 to 2,761.
        #expect(order.moved < inserts / 6, "\(order.moved) rows moved")
        #expect(order.widest < 1_000, "a window of \(order.widest) rows")
    }
}

extension SpreadWindowTests.Case: CustomTestStringConvertible {
    var testDescription: String { name }
}
