#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 address as 16 bytes (IPv4 as its IPv4-mapped IPv6 form, `::ffff:a.b.c.d`),
/// so that one comparison, one hash and one mask serve both families.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address's 16 bytes, big-endian, as two words.
    public var high: UInt64
    public var low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses a literal: `203.0.113.7`, `2001:db8::1`, `::ffff:10.0.0.1`; brackets around an
    /// IPv6 literal are accepted (`[::1]`). Anything else (a name, a port, a zone) is nil.
    public init?(_ text: some StringProtocol) {
        guard !text.isEmpty, text.utf8.count <= 47 else { return nil }
        var literal = String(text)
        if literal.hasPrefix("[") && literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            self = Self(ipv4: UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, literal, &v6) == 1 else { return nil }
        self = withUnsafeBytes(of: &v6) { Self(bytes: $0) }
    }

    /// An IPv4 address given as a host-order integer (`0x7F000001` is 127.0.0.1).
    public init(ipv4: UInt32) {
        self.high = 0
        self.low = 0x0000_FFFF_0000_0000 | UInt64(ipv4)
    }

    /// From 16 raw bytes in network order.
    init(bytes: UnsafeRawBufferPointer) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 { high = high << 8 | UInt64(bytes[index]) }
        for index in 8..<16 { low = low << 8 | UInt64(bytes[index]) }
        self.init(high: high, low: low)
    }

    public var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// The address with all but its first `bits` bits cleared (of 128; an IPv4 address's own
    /// 32 bits are the last 32).
    public func masked(toPrefix bits: Int) -> IPAddress {
        let bits = min(max(bits, 0), 128)
        let highMask: UInt64 = bits >= 64 ? .max : (bits == 0 ? 0 : ~(UInt64.max >> UInt64(bits)))
        let lowBits = bits - 64
        let lowMask: UInt64 = lowBits >= 64 ? .max : (lowBits <= 0 ? 0 : ~(UInt64.max >> UInt64(lowBits)))
        return IPAddress(high: high & highMask, low: low & lowMask)
    }

    /// Who a per-address limit counts: an IPv4 address itself, an IPv6 address by its /64 (one
    /// host is usually given a whole /64, and can pick any address in it).
    public var limitingPrefix: IPAddress {
        isIPv4 ? self : masked(toPrefix: 64)
    }

    /// The usual text form: dotted for IPv4, RFC 5952 for IPv6.
    public var description: String {
        if isIPv4 {
            // Digit by digit: every access-log line spells its client's address.
            let value = UInt32(truncatingIfNeeded: low)
            return String(unsafeUninitializedCapacity: 15) { buffer in
                var count = 0
                for shift in [24, 16, 8, 0] as [UInt32] {
                    if shift != 24 {
                        buffer[count] = UInt8(ascii: ".")
                        count += 1
                    }
                    let octet = UInt8(truncatingIfNeeded: value >> shift)
                    if octet >= 100 {
                        buffer[count] = UInt8(ascii: "0") + octet / 100
                        count += 1
                    }
                    if octet >= 10 {
                        buffer[count] = UInt8(ascii: "0") + octet / 10 % 10
                        count += 1
                    }
                    buffer[count] = UInt8(ascii: "0") + octet % 10
                    count += 1
                }
                return count
            }
        }
        var raw = in6_addr()
        withUnsafeMutableBytes(of: &raw) { bytes in
            for index in 0..<8 { bytes[index] = UInt8(truncatingIfNeeded: high >> UInt64(56 - 8 * index)) }
            for index in 0..<8 { bytes[8 + index] = UInt8(truncatingIfNeeded: low >> UInt64(56 - 8 * index)) }
        }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count)) != nil else { return "::" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A block of addresses: `10.0.0.0/8`, `fd00::/8`, or one address (`192.0.2.1`, a /32 or /128).
public struct IPAddressRange: Sendable, Hashable, CustomStringConvertible {
    public var base: IPAddress
    /// Leading bits that must match, of 128.
    public var prefixLength: Int

    /// Parses `address` or `address/bits` (bits counted in the address's own family).
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { return nil }
        let familyBits = address.isIPv4 ? 32 : 128
        var bits = familyBits
        if parts.count == 2 {
            guard parts[1].utf8.count <= 3, let value = Int(parts[1]), (0...familyBits).contains(value) else { return nil }
            bits = value
        }
        self.prefixLength = bits + (address.isIPv4 ? 96 : 0)
        self.base = address.masked(toPrefix: prefixLength)
    }

    public func contains(_ address: IPAddress) -> Bool {
        address.masked(toPrefix: prefixLength) == base
    }

    public var description: String {
        "\(base)/\(base.isIPv4 ? prefixLength - 96 : prefixLength)"
    }
}
