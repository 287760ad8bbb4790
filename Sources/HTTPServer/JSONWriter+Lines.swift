extension JSONWriter {
    /// How many bytes are written.
    public var count: Int { buffer.count }

    /// The bytes written, in place (no copy, unlike `bytes`).
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeBytes(body)
    }

    /// Ends a JSON Lines record: a newline, after which a value starts the next record (no comma).
    public mutating func endLine() {
        buffer.makeUnique()
        buffer.append(UInt8(ascii: "\n"))
        needsComma = false
    }

    /// A non-negative number given in units of 10^-`fractionDigits` (1–9), with exactly that
    /// many decimals: `decimal(1_500, fractionDigits: 3)` writes `1.500`.
    public mutating func decimal(_ units: UInt64, fractionDigits: Int) {
        let digits = max(1, min(9, fractionDigits))
        var scale: UInt64 = 1
        for _ in 0..<digits { scale *= 10 }
        int64(Int64(clamping: units / scale))
        buffer.append(UInt8(ascii: "."))
        var fraction = units % scale
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 9) { text in
            for index in stride(from: digits - 1, through: 0, by: -1) {
                text[index] = UInt8(ascii: "0") + UInt8(fraction % 10)
                fraction /= 10
            }
            buffer.append(UnsafeBufferPointer(rebasing: text[0..<digits]))
        }
    }
}

extension JSONWriter {
    /// What was written, with `insertions` spliced in at their offsets (`count` values taken
    /// while writing, ascending): a value learnt only after the bytes that precede it were
    /// written (a section's count, known once the page has shown its sections). One copy, as
    /// `bytes` makes.
    public func bytes(inserting insertions: [(at: Int, bytes: [UInt8])]) -> [UInt8] {
        guard !insertions.isEmpty else { return bytes }
        return withUnsafeBytes { written in
            var spliced: [UInt8] = []
            spliced.reserveCapacity(written.count + insertions.reduce(0) { $0 + $1.bytes.count })
            var from = 0
            for insertion in insertions where insertion.at >= from && insertion.at <= written.count {
                spliced.append(contentsOf: written[from..<insertion.at])
                spliced.append(contentsOf: insertion.bytes)
                from = insertion.at
            }
            spliced.append(contentsOf: written[from...])
            return spliced
        }
    }
}
