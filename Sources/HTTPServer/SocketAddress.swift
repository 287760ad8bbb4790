#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 address to bind, parsed from a literal ("127.0.0.1", "::1", "0.0.0.0").
struct SocketAddress {
    private enum Storage {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    private let storage: Storage

    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    init(host: String, port: Int) throws {
        guard (0...65_535).contains(port) else { throw ParseError(description: "port \(port) is out of range 0...65535") }
        let name = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, name, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = UInt16(port).bigEndian
            storage = .v4(v4)
            return
        }
        var v6 = sockaddr_in6()
        let literal = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
        if inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = UInt16(port).bigEndian
            storage = .v6(v6)
            return
        }
        throw ParseError(description: "host '\(host)' is not an IPv4 or IPv6 address")
    }

    var isIPv6: Bool {
        if case .v6 = storage { return true }
        return false
    }

    /// The address as C wants it: a pointer and its length.
    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        switch storage {
        case .v4(var address):
            let length = socklen_t(MemoryLayout<sockaddr_in>.size)
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
        case .v6(var address):
            let length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
        }
    }
}
