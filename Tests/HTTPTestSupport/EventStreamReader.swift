import Foundation

/// One server-sent event as a client reads it: its fields, or a comment line (a heartbeat).
public struct ServerSentEvent: Sendable, Equatable {
    public var id: String?
    public var event: String?
    public var data: String?
    public var retry: Int?
    public var comment: String?
}

/// Reads a `text/event-stream` response event by event over one connection, as `EventSource`
/// does: the request with `Accept: text/event-stream`, the head, then each event as its chunks
/// arrive.
public final class EventStreamReader: @unchecked Sendable {
    public let client: RawHTTPClient
    public let head: HTTPResponse
    private var pending: [UInt8] = []
    public private(set) var isEnded = false

    /// Opens `target`; `headers` are sent besides `Accept` (a `Last-Event-ID`, a key).
    public init(port: Int, _ target: String, headers: [(String, String)] = [], timeout: Double = RawHTTPClient.defaultTimeout) throws {
        client = try RawHTTPClient(port: port, timeout: timeout)
        var head = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        try client.send(head + "\r\n")
        var response = try client.readHead()
        if response.status != 200 {
            response = try client.readBody(of: response)
            isEnded = true
        }
        self.head = response
    }

    /// The next event or comment; nil when the stream ended.
    public func next() throws -> ServerSentEvent? {
        while true {
            if let end = Self.blockEnd(in: pending) {
                let block = String(decoding: pending[..<end.start], as: UTF8.self)
                pending.removeFirst(end.start + end.length)
                if let event = Self.parse(block) { return event }
                continue
            }
            guard !isEnded, let chunk = try client.readChunk() else {
                isEnded = true
                return nil
            }
            pending += chunk
        }
    }

    /// Events (comments left out) until `stop` says so or the stream ends.
    public func events(until stop: (ServerSentEvent) -> Bool) throws -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        while let event = try next() {
            if event.comment != nil { continue }
            events.append(event)
            if stop(event) { break }
        }
        return events
    }

    private static func blockEnd(in bytes: [UInt8]) -> (start: Int, length: Int)? {
        guard bytes.count >= 2 else { return nil }
        for index in 0..<(bytes.count - 1) where bytes[index] == 10 && bytes[index + 1] == 10 { return (index, 2) }
        return nil
    }

    static func parse(_ block: String) -> ServerSentEvent? {
        var event = ServerSentEvent()
        var data: [String] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") {
                event.comment = String(line.dropFirst()).trimmingCharacters(in: .whitespaces)
                continue
            }
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            var value = parts.count > 1 ? String(parts[1]) : ""
            if value.hasPrefix(" ") { value.removeFirst() }
            switch name {
            case "id": event.id = value
            case "event": event.event = value
            case "data": data.append(value)
            case "retry": event.retry = Int(value)
            default: continue
            }
        }
        if !data.isEmpty { event.data = data.joined(separator: "\n") }
        return event == ServerSentEvent() ? nil : event
    }
}
