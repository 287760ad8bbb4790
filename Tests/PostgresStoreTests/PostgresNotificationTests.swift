import Foundation
import Testing

@testable import Storage

/// LISTEN and NOTIFY between two connections, waiting on the listener's socket as a server would.
@Suite("PostgreSQL notifications", .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.missingReason))
struct PostgresNotificationTests {
    @Test func aNotificationFromAnotherConnectionIsDelivered() throws {
        let listener = try PostgresTestServer.connect()
        let sender = try PostgresTestServer.connect()
        let channel = PostgresTestServer.uniqueName("changes")
        try listener.execute("LISTEN \(channel)")
        #expect(try listener.notifications().isEmpty)
        try sender.query("SELECT pg_notify($1, $2)", [.text(channel), .text("items 42 changed: Grüße")])
        let received = try receive(on: listener, count: 1)
        #expect(received.map(\.channel) == [channel])
        #expect(received.map(\.payload) == ["items 42 changed: Grüße"])
        #expect(try listener.notifications().isEmpty, "each notification is returned once")
    }

    @Test func notificationsInATransactionArriveAtItsCommitInOrder() throws {
        let listener = try PostgresTestServer.connect()
        let sender = try PostgresTestServer.connect()
        let channel = PostgresTestServer.uniqueName("changes")
        try listener.execute("LISTEN \(channel)")
        try sender.transaction { () throws(StoreError) in
            for payload in ["1", "2", "3"] { try sender.query("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)]) }
            #expect(try listener.notifications().isEmpty)
        }
        #expect(try receive(on: listener, count: 3).map(\.payload) == ["1", "2", "3"])
    }

    /// Waits (5 s at most) on the socket until `count` notifications arrived.
    func receive(on connection: PostgresConnection, count: Int) throws -> [(channel: String, payload: String)] {
        var received: [(channel: String, payload: String)] = []
        let deadline = ContinuousClock.now + .seconds(5)
        while received.count < count, ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 500)
            received += try connection.notifications()
        }
        return received
    }
}
