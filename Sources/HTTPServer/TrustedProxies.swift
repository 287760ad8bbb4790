/// The proxies whose word on the client's address is taken: a request whose socket peer is one
/// of them names its client in `X-Forwarded-For` (nginx's `$proxy_add_x_forwarded_for`).
///
/// The header is read from the right, the end the nearest proxy wrote: each trusted hop names
/// the one before it, and the first address that is not a trusted proxy is the client. What a
/// client writes itself stands to the left of that and is never believed. An entry that is not an
/// address ends the walk at the last hop known good. With no trusted proxy, or a peer that is not
/// one, the header is ignored and the peer is the client.
public struct TrustedProxies: Sendable {
    public var ranges: [IPAddressRange]

    public init(_ ranges: [IPAddressRange] = []) {
        self.ranges = ranges
    }

    public var isEmpty: Bool { ranges.isEmpty }

    public func trusts(_ address: IPAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// The client's address for a request from `peer` with these headers.
    public func client(peer: IPAddress, headers: HTTPHeaders) -> IPAddress {
        guard !ranges.isEmpty, trusts(peer) else { return peer }
        var client = peer
        let values = headers.values("X-Forwarded-For")
        for value in values.reversed() {
            for entry in value.split(separator: ",").reversed() {
                guard let address = IPAddress(entry.trimmingASCIIWhitespace()) else { return client }
                client = address
                if !trusts(address) { return client }
            }
        }
        return client
    }
}
