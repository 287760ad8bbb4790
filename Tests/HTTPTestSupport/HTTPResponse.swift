import Foundation

/// A parsed response: status, headers in order, body bytes.
public struct HTTPResponse: Sendable {
    public var version: String
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    init(head: String) throws {
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw RawHTTPClient.Failure(description: "bad status line in '\(head)'")
        }
        version = String(statusLine[0])
        self.status = status
        headers = lines.compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        body = []
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object, or nil.
    public var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}
