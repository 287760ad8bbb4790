/// How a locale lays out a decimal number: affixes for each sign, separators and grouping.
///
/// Derived once from Foundation's own output (see ``derive(positive:negative:integerDigits:fractionDigits:)``)
/// and then applied with integer arithmetic, which is what makes formatting cheap on the
/// request path. Affixes carry the currency symbol and its spacing for currency layouts, and
/// the minus sign for negative numbers; all are raw UTF-8, so U+00A0 and U+202F survive intact.
struct DecimalLayout: Sendable, Equatable {
    var positivePrefix: [UInt8]
    var positiveSuffix: [UInt8]
    var negativePrefix: [UInt8]
    var negativeSuffix: [UInt8]
    var decimalSeparator: [UInt8]
    var groupingSeparator: [UInt8]
    /// Digits per group (3 for all supported locales); 0 means no grouping.
    var groupingSize: Int

    /// Formats `integerPart.fraction`, `fraction` being exactly `fractionDigits` digits (zero-padded).
    func format(negative: Bool, integerPart: UInt64, fraction: UInt64, fractionDigits: Int) -> String {
        let prefix = negative ? negativePrefix : positivePrefix
        let suffix = negative ? negativeSuffix : positiveSuffix
        let capacity = prefix.count + suffix.count + 20 + 7 * groupingSeparator.count + decimalSeparator.count + fractionDigits
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var count = 0
            func append(_ bytes: [UInt8]) {
                for byte in bytes {
                    buffer[count] = byte
                    count += 1
                }
            }
            append(prefix)
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
                var value = integerPart
                var length = 0
                repeat {
                    digits[length] = UInt8(truncatingIfNeeded: value % 10) + 0x30
                    value /= 10
                    length += 1
                } while value > 0
                for position in stride(from: length - 1, through: 0, by: -1) {
                    buffer[count] = digits[position]
                    count += 1
                    if groupingSize > 0 && position > 0 && position % groupingSize == 0 { append(groupingSeparator) }
                }
            }
            if fractionDigits > 0 {
                append(decimalSeparator)
                var divisor: UInt64 = 1
                for _ in 1..<fractionDigits { divisor *= 10 }
                var rest = fraction
                while divisor > 0 {
                    buffer[count] = UInt8(truncatingIfNeeded: (rest / divisor) % 10) + 0x30
                    rest %= divisor
                    divisor /= 10
                    count += 1
                }
            }
            append(suffix)
            return count
        }
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
