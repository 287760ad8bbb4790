/// How a locale lays out a decimal number: affixes for each sign, separators and grouping.
///
/// Derived once from Foundation's own output (see ``derive(positive:negative:integerDigits:fractionDigits:)``)
/// and then applied with integer arithmetic, which is what makes formatting cheap on the
/// request path. Affixes carry the currency symbol and its spacing for currency layouts, and
/// the minus sign for negative numbers; all are raw UTF-8, so U+00A0 and U+202F survive intact.
///
/// All pieces live in one buffer the layout owns, so formatting touches no array and pays no
/// reference counting per piece. `@unchecked Sendable`: the buffer is written once in `init`
/// and only read afterwards.
final class DecimalLayout: @unchecked Sendable {
    /// Offsets of one piece in ``bytes``.
    private struct Piece {
        var start: Int
        var count: Int
    }

    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private let positivePrefix: Piece
    private let positiveSuffix: Piece
    private let negativePrefix: Piece
    private let negativeSuffix: Piece
    private let decimalSeparator: Piece
    private let groupingSeparator: Piece
    /// Digits per group (3 for all supported locales); 0 means no grouping.
    let groupingSize: Int

    init(
        positivePrefix: [UInt8],
        positiveSuffix: [UInt8],
        negativePrefix: [UInt8],
        negativeSuffix: [UInt8],
        decimalSeparator: [UInt8],
        groupingSeparator: [UInt8],
        groupingSize: Int
    ) {
        let pieces = [positivePrefix, positiveSuffix, negativePrefix, negativeSuffix, decimalSeparator, groupingSeparator]
        let all = pieces.flatMap { $0 }
        bytes = .allocate(capacity: max(all.count, 1))
        _ = bytes.initialize(from: all)
        var offsets: [Piece] = []
        var start = 0
        for piece in pieces {
            offsets.append(Piece(start: start, count: piece.count))
            start += piece.count
        }
        self.positivePrefix = offsets[0]
        self.positiveSuffix = offsets[1]
        self.negativePrefix = offsets[2]
        self.negativeSuffix = offsets[3]
        self.decimalSeparator = offsets[4]
        self.groupingSeparator = offsets[5]
        self.groupingSize = groupingSize
    }

    deinit {
        bytes.deallocate()
    }

    /// Formats `integerPart.fraction`, `fraction` being exactly `fractionDigits` digits (zero-padded).
    ///
    /// The exact length is computed first so that results of up to 15 UTF-8 bytes (most prices)
    /// are built as small strings, without a heap allocation.
    func format(negative: Bool, integerPart: UInt64, fraction: UInt64, fractionDigits: Int) -> String {
        let integerLength = integerLength(integerPart)
        let length = length(negative: negative, integerLength: integerLength, fractionDigits: fractionDigits)
        return String(unsafeUninitializedCapacity: length) { buffer in
            write(
                negative: negative, integerPart: integerPart, integerLength: integerLength, fraction: fraction, fractionDigits: fractionDigits,
                to: buffer)
        }
    }

    /// Calls `body` with the UTF-8 of ``format(negative:integerPart:fraction:fractionDigits:)``
    /// written into scratch memory: no `String` made, for a caller that copies the bytes on.
    func withFormatted(negative: Bool, integerPart: UInt64, fraction: UInt64, fractionDigits: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let integerLength = integerLength(integerPart)
        let length = length(negative: negative, integerLength: integerLength, fractionDigits: fractionDigits)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
            let count = write(
                negative: negative, integerPart: integerPart, integerLength: integerLength, fraction: fraction, fractionDigits: fractionDigits,
                to: buffer)
            body(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// Writes the UTF-8 of ``format(negative:integerPart:fraction:fractionDigits:)`` at the start
    /// of `buffer`: how many bytes, or nil when they do not fit (nothing written). For a caller
    /// that writes straight into its output (a table writes a cell per number of a row).
    func write(negative: Bool, integerPart: UInt64, fraction: UInt64, fractionDigits: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        let integerLength = integerLength(integerPart)
        let length = length(negative: negative, integerLength: integerLength, fractionDigits: fractionDigits)
        guard length <= buffer.count else { return nil }
        return write(
            negative: negative, integerPart: integerPart, integerLength: integerLength, fraction: fraction, fractionDigits: fractionDigits,
            to: buffer)
    }

    /// The UTF-8 length of the formatted number whose integer part takes `integerLength` bytes.
    private func length(negative: Bool, integerLength: Int, fractionDigits: Int) -> Int {
        let prefix = negative ? negativePrefix : positivePrefix
        let suffix = negative ? negativeSuffix : positiveSuffix
        let fractionLength = fractionDigits > 0 ? decimalSeparator.count + fractionDigits : 0
        return prefix.count + integerLength + fractionLength + suffix.count
    }

    /// Digits and grouping separators of the integer part.
    private func integerLength(_ integerPart: UInt64) -> Int {
        var digitCount = 1
        var rest = integerPart
        while rest >= 10 {
            rest /= 10
            digitCount += 1
        }
        let separatorCount = groupingSize > 0 ? (digitCount - 1) / groupingSize : 0
        return digitCount + separatorCount * groupingSeparator.count
    }

    /// Writes the formatted number at the start of `buffer` (at least its `length` long);
    /// returns the bytes written. `integerLength` is `integerLength(integerPart)`, counted once
    /// by the caller for the length too.
    private func write(
        negative: Bool, integerPart: UInt64, integerLength: Int, fraction: UInt64, fractionDigits: Int, to buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        let prefix = negative ? negativePrefix : positivePrefix
        let suffix = negative ? negativeSuffix : positiveSuffix
        let group = groupingSeparator
        let source = UnsafeBufferPointer(bytes)
        func copy(_ piece: Piece, to position: Int) {
            for offset in 0..<piece.count { buffer[position + offset] = source[piece.start + offset] }
        }
        copy(prefix, to: 0)
        var count = prefix.count
        // Integer digits right to left, a separator before every full group (a countdown, not
        // a remainder: a division per digit cost more than the digit).
        var position = count + integerLength
        var value = integerPart
        var untilSeparator = groupingSize > 0 ? groupingSize : -1  // -1: never a separator
        repeat {
            if untilSeparator == 0 {
                position -= group.count
                copy(group, to: position)
                untilSeparator = groupingSize
            }
            position -= 1
            buffer[position] = UInt8(truncatingIfNeeded: value % 10) &+ 0x30
            value /= 10
            untilSeparator -= 1
        } while value > 0
        count += integerLength
        if fractionDigits > 0 {
            copy(decimalSeparator, to: count)
            count += decimalSeparator.count
            var digits = fraction
            for offset in stride(from: fractionDigits - 1, through: 0, by: -1) {
                buffer[count + offset] = UInt8(truncatingIfNeeded: digits % 10) &+ 0x30
                digits /= 10
            }
            count += fractionDigits
        }
        copy(suffix, to: count)
        return count + suffix.count
    }

    /// Reads a layout from Foundation's rendering of `±integerDigits.fractionDigits`.
    ///
    /// `integerDigits` must have at least 7 digits so that two groups show. Returns nil when
    /// the output has any other shape (non-ASCII digits, different digits, inconsistent
    /// separators, other fraction length): the caller then keeps using Foundation.
    static func derive(positive: String, negative: String, integerDigits: String, fractionDigits: String) -> DecimalLayout? {
        guard let plus = split(positive), let minus = split(negative), plus.body == minus.body else { return nil }
        let body = plus.body
        let expectedDigits = Array(integerDigits.utf8) + Array(fractionDigits.utf8)
        guard body.filter(isDigit) == expectedDigits else { return nil }

        // Alternating runs: digits, separator, digits, … (the body starts and ends with a digit).
        var groups: [Int] = []
        var separators: [[UInt8]] = []
        var index = 0
        while index < body.count {
            let start = index
            let digitRun = isDigit(body[index])
            while index < body.count && isDigit(body[index]) == digitRun { index += 1 }
            if digitRun { groups.append(index - start) } else { separators.append(Array(body[start..<index])) }
        }
        var decimalSeparator: [UInt8] = []
        if !fractionDigits.isEmpty {
            guard groups.last == fractionDigits.utf8.count, let last = separators.popLast() else { return nil }
            decimalSeparator = last
            groups.removeLast()
        }
        var groupingSeparator: [UInt8] = []
        var groupingSize = 0
        if let first = separators.first {
            guard separators.allSatisfy({ $0 == first }), first != decimalSeparator, groups.count >= 3 else { return nil }
            groupingSize = groups[groups.count - 1]
            guard groupingSize > 0, groups.dropFirst().allSatisfy({ $0 == groupingSize }), groups[0] <= groupingSize else { return nil }
            groupingSeparator = first
        }
        return DecimalLayout(
            positivePrefix: plus.prefix,
            positiveSuffix: plus.suffix,
            negativePrefix: minus.prefix,
            negativeSuffix: minus.suffix,
            decimalSeparator: decimalSeparator,
            groupingSeparator: groupingSeparator,
            groupingSize: groupingSize
        )
    }

    private static func split(_ text: String) -> (prefix: [UInt8], body: [UInt8], suffix: [UInt8])? {
        let bytes = Array(text.utf8)
        guard let first = bytes.firstIndex(where: isDigit), let last = bytes.lastIndex(where: isDigit) else { return nil }
        return (Array(bytes[..<first]), Array(bytes[first...last]), Array(bytes[(last + 1)...]))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
