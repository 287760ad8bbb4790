/// The rows around a row that has no room between its neighbours, spread out to make room
/// (`TitleOrder.place`): how many of each side, the `ord` below them, and the gap between rows.
///
/// The window grows a row at a time from the side whose next gap is wider, until its rows,
/// spread evenly over its span, are at least `target` apart. The target grows with the window
/// (2^12 a row, so a run of rows added at one place spreads over more of the order each time
/// instead of packing it) but never past the square root of the span, and never below its
/// fourth root. The cap keeps every target reachable: a region of the order made dense by
/// many rows added into one gap is spread out by a window that reaches past it, instead of
/// being packed again by windows that stop inside it. The floor gives larger spans more room
/// per row, so a spread settles a region for longer, the more rows it moved.
struct SpreadWindow: Equatable {
    /// Rows taken before and after the row placed.
    let left: Int
    let right: Int
    /// The `ord` of the row below the window (0 when there is none): the rows get
    /// `low + gap`, `low + 2 gap`, … in order.
    let low: Int64
    let gap: Int64
}

extension SpreadWindow {
    /// The window over `before` and `after` (the placed rows' ords each side, nearest first, up
    /// to `fetched + 1` each: the last one a boundary only); nil when it needs more rows than
    /// were fetched. `lastOrd` is the last row's ord when `after` reaches the end of the order:
    /// the window may then grow up to `TitleOrder.end` or a step past it.
    init?(before: [Int64], after: [Int64], fetched: Int, lastOrd: Int64) {
        func low(_ left: Int) -> Int64 { before.count > left ? before[left] : 0 }
        func high(_ right: Int) -> Int64 { after.count > right ? after[right] : max(TitleOrder.after(lastOrd), TitleOrder.end) }
        func gap(_ left: Int, _ right: Int) -> Int64 { (high(right) - low(left)) / Int64(left + right + 2) }
        func target(_ left: Int, _ right: Int) -> Int64 {
            let bits = Int64.bitWidth - (high(right) - low(left)).leadingZeroBitCount
            let rows = Int64(left + right + 1)
            return max(1 << max(1, bits / 4), min(rows << 12, 1 << max(1, bits / 2)))
        }
        var left = 0
        var right = 0
        while gap(left, right) < target(left, right) {
            let canLeft = left < min(before.count, fetched)
            let canRight = right < min(after.count, fetched)
            guard canLeft || canRight else { break }
            if canLeft && (!canRight || gap(left + 1, right) > gap(left, right + 1)) { left += 1 } else { right += 1 }
        }
        let whole = before.count <= fetched && after.count <= fetched
        guard gap(left, right) >= target(left, right) || whole else { return nil }
        self.init(left: left, right: right, low: low(left), gap: gap(left, right))
    }
}
