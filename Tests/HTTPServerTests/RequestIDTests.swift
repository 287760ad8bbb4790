import Testing

@testable import HTTPServer

@Suite("Request ids (pure)")
struct RequestIDTests {
    static let counters: [(UInt64, String)] = [
        (0, "0"), (1, "1"), (15, "f"), (16, "10"), (255, "ff"), (4_096, "1000"),
        (0xdead_beef, "deadbeef"), (UInt64.max, "ffffffffffffffff"),
    ]

    @Test(arguments: counters)
    func generatedIdsArePrefixDashHexCounter(counter: UInt64, hex: String) {
        let id = RequestID.make(counter: counter)
        let parts = id.split(separator: "-")
        #expect(parts.count == 2)
        #expect(parts.first?.utf8.count == 8)
        #expect(parts.last.map(String.init) == hex)
        #expect(RequestID.accept(id) == id, "a generated id is one the server would echo")
    }

    @Test func successiveIdsDifferAndShareTheProcessPrefix() {
        let first = RequestID.generate()
        let second = RequestID.generate()
        #expect(first != second)
        #expect(first.prefix(9) == second.prefix(9))
        let counter = { (id: String) in UInt64(id.split(separator: "-")[1], radix: 16) ?? 0 }
        #expect(counter(second) > counter(first))
    }
}
