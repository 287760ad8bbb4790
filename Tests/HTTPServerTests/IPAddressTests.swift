import Testing

@testable import HTTPServer

@Suite("Client addresses and trusted proxies")
struct IPAddressTests {
    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1", true),
        ("[::1]", "::1", false),
        ("2001:db8:0:0:0:0:0:1", "2001:db8::1", false),
        ("::ffff:10.0.0.1", "10.0.0.1", true),
        ("255.255.255.255", "255.255.255.255", true),
        ("0.0.0.0", "0.0.0.0", true),
        ("10.9.100.99", "10.9.100.99", true),
        ("1.20.199.200", "1.20.199.200", true),
    ])
    func literalsParseAndPrintInTheirUsualForm(text: String, printed: String, isIPv4: Bool) throws {
        let address = try #require(IPAddress(text))
        #expect(address.description == printed)
        #expect(address.isIPv4 == isIPv4)
        #expect(IPAddress(printed) == address)
    }

    @Test(arguments: ["", "localhost", "127.0.0.1:80", "256.0.0.1", "1.2.3", "fe80::1%eth0", "::g", " 1.2.3.4", String(repeating: "1", count: 60)])
    func anythingButALiteralIsNotAnAddress(text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test func anIPv6ClientIsLimitedByItsSlash64AndAnIPv4ClientByItself() throws {
        let one = try #require(IPAddress("2001:db8:1:2:aaaa::1"))
        let sibling = try #require(IPAddress("2001:db8:1:2:ffff::9"))
        let elsewhere = try #require(IPAddress("2001:db8:1:3::1"))
        #expect(one.limitingPrefix == sibling.limitingPrefix)
        #expect(one.limitingPrefix != elsewhere.limitingPrefix)
        let v4 = try #require(IPAddress("192.0.2.7"))
        #expect(v4.limitingPrefix == v4)
        #expect(v4.limitingPrefix != IPAddress("192.0.2.8")?.limitingPrefix)
    }

    @Test(arguments: [
        ("10.0.0.0/8", "10.200.3.4", true),
        ("10.0.0.0/8", "11.0.0.1", false),
        ("192.0.2.1", "192.0.2.1", true),
        ("192.0.2.1", "192.0.2.2", false),
        ("0.0.0.0/0", "203.0.113.9", true),
        ("0.0.0.0/0", "2001:db8::1", false),
        ("fd00::/8", "fd12::1", true),
        ("fd00::/8", "fe80::1", false),
        ("::1", "::1", true),
        ("172.16.0.0/12", "172.31.255.255", true),
        ("172.16.0.0/12", "172.32.0.0", false),
    ])
    func rangesContainTheirAddresses(range: String, address: String, contained: Bool) throws {
        let block = try #require(IPAddressRange(range))
        #expect(block.contains(try #require(IPAddress(address))) == contained)
    }

    @Test(arguments: ["10.0.0.0/33", "fd00::/129", "10.0.0.0/", "10.0.0.0/-1", "/8", "nginx", "10.0.0.0/8/8", "10.0.0.0/0008"])
    func malformedRangesAreRefused(text: String) {
        #expect(IPAddressRange(text) == nil)
    }

    /// Peer, X-Forwarded-For values (one per header line), trusted ranges → the client.
    @Test(arguments: [
        // No trusted proxy: the header is ignored.
        ("10.0.0.1", ["203.0.113.9"], [String](), "10.0.0.1"),
        // A peer that is not trusted: ignored too.
        ("198.51.100.1", ["203.0.113.9"], ["10.0.0.0/8"], "198.51.100.1"),
        // nginx in front: the address it saw.
        ("10.0.0.1", ["203.0.113.9"], ["10.0.0.0/8"], "203.0.113.9"),
        // A client's own forged entry stands left of what nginx appended, and is not believed.
        ("10.0.0.1", ["1.1.1.1, 203.0.113.9"], ["10.0.0.0/8"], "203.0.113.9"),
        // Two trusted hops: walk past both.
        ("10.0.0.1", ["203.0.113.9, 10.0.0.2"], ["10.0.0.0/8"], "203.0.113.9"),
        // Header lines are read as one list, the last line last.
        ("10.0.0.1", ["203.0.113.9", "10.0.0.2"], ["10.0.0.0/8"], "203.0.113.9"),
        // Garbage ends the walk at the last hop known good.
        ("10.0.0.1", ["203.0.113.9, nonsense"], ["10.0.0.0/8"], "10.0.0.1"),
        ("10.0.0.1", ["nonsense, 10.0.0.2"], ["10.0.0.0/8"], "10.0.0.2"),
        // Every hop trusted: the leftmost is as far as anyone can tell.
        ("10.0.0.1", ["10.0.0.3, 10.0.0.2"], ["10.0.0.0/8"], "10.0.0.3"),
        // No header from a trusted peer: the peer.
        ("10.0.0.1", [], ["10.0.0.0/8"], "10.0.0.1"),
        ("::1", ["2001:db8::7"], ["::1"], "2001:db8::7"),
        ("10.0.0.1", [" 203.0.113.9 ,10.0.0.2 "], ["10.0.0.0/8"], "203.0.113.9"),
    ])
    func theClientIsTheFirstUntrustedHopFromTheRight(peer: String, forwarded: [String], trusted: [String], client: String) throws {
        let proxies = TrustedProxies(trusted.compactMap { IPAddressRange($0) })
        let headers = HTTPHeaders(forwarded.map { ("X-Forwarded-For", $0) })
        let found = proxies.client(peer: try #require(IPAddress(peer)), headers: headers)
        #expect(found.description == client)
    }
}
