/// A parsed `Accept-Language` header (RFC 9110 §12.5.4): language ranges with their weights.
///
/// Parsing is byte-level and bounded: at most ``maxBytes`` of the header and ``maxRanges``
/// ranges are looked at, so a huge or hostile header costs a fixed amount of work. Malformed
/// members (bad tag characters, bad `q`) are skipped, never fatal.
struct AcceptLanguage {
    struct Range: Equatable {
        /// Lowercased language subtag, or `*`.
        var language: String
        /// Uppercased region subtag, if the tag has one (a script subtag is skipped).
        var region: String?
        /// Weight in thousandths, 0...1000.
        var quality: Int
    }

    static let maxBytes = 4096
    static let maxRanges = 32
    static let maxMemberBytes = 128

    var ranges: [Range] = []

    init(_ header: String) {
        var member: [UInt8] = []
        var overlong = false
        var consumed = 0
        for byte in header.utf8 {
            consumed += 1
            if consumed > Self.maxBytes || ranges.count >= Self.maxRanges { break }
            if byte == UInt8(ascii: ",") {
                if !overlong, let range = Self.parseMember(member) { ranges.append(range) }
                member.removeAll(keepingCapacity: true)
                overlong = false
            } else if member.count < Self.maxMemberBytes {
                member.append(byte)
            } else {
                overlong = true  // no valid member is this long; never parse a truncated one
            }
        }
        if !overlong, ranges.count < Self.maxRanges, let range = Self.parseMember(member) { ranges.append(range) }
    }

    /// One `range;q=x` member; nil when it is empty or malformed.
    static func parseMember(_ bytes: [UInt8]) -> Range? {
        let parts = bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        guard let tagBytes = parts.first.map(trimmed), !tagBytes.isEmpty else { return nil }
        var quality = 1000
        for parameter in parts.dropFirst() {
            let p = trimmed(parameter)
            guard p.count >= 2, p[p.startIndex] | 0x20 == UInt8(ascii: "q"), p[p.startIndex + 1] == UInt8(ascii: "=") else {
                continue
            }
            guard let q = parseQuality(p[(p.startIndex + 2)...]) else { return nil }
            quality = q
        }
        if tagBytes.count == 1 && tagBytes.first == UInt8(ascii: "*") {
            return Range(language: "*", region: nil, quality: quality)
        }
        // Subtags are 1-8 alphanumerics; `_` is accepted as a separator because clients send it.
        let subtags = tagBytes.split(whereSeparator: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        guard let first = subtags.first, (1...8).contains(first.count), first.allSatisfy(isLetter) else { return nil }
        guard subtags.allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy(isAlphanumeric) }) else { return nil }
        let language = String(decoding: first.map { $0 | 0x20 }, as: UTF8.self)
        var region: String?
        for subtag in subtags.dropFirst() {
            if subtag.count == 4 && subtag.allSatisfy(isLetter) { continue }  // script, e.g. Hant
            if subtag.count == 2 && subtag.allSatisfy(isLetter) {
                region = String(decoding: subtag.map { $0 & ~0x20 }, as: UTF8.self)
            }
            break
        }
        return Range(language: language, region: region, quality: quality)
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, in thousandths.
    static func parseQuality(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var value = Int(first - UInt8(ascii: "0")) * 1000
        let rest = bytes.dropFirst()
        guard !rest.isEmpty else { return value }
        guard rest.first == UInt8(ascii: "."), rest.count <= 4 else { return nil }
        var scale = 100
        for digit in rest.dropFirst() {
            guard (0x30...0x39).contains(digit) else { return nil }
            value += Int(digit - 0x30) * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let b = slice.first, b == 0x20 || b == 0x09 { slice.removeFirst() }
        while let b = slice.last, b == 0x20 || b == 0x09 { slice.removeLast() }
        return slice
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || (0x30...0x39).contains(byte) }
}
