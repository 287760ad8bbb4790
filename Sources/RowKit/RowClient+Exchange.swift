import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RowClient {
    /// A request to one of the server's links.
    public struct Request: Sendable {
        public var method: String
        /// A link as the server gave it (`/v1/<collection>/<id>`).
        public var link: String
        public var headers: [String: String] = [:]
        public var body: Data?

        public init(method: String, link: String, headers: [String: String] = [:], body: Data? = nil) {
            self.method = method
            self.link = link
            self.headers = headers
            self.body = body
        }
    }

    /// An answer: status, headers (names lower-cased) and body.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data

        init(_ response: HTTPURLResponse, body: Data) {
            status = response.statusCode
            var headers: [String: String] = [:]
            for (name, value) in response.allHeaderFields {
                guard let name = name as? String, let value = value as? String else { continue }
                headers[name.lowercased()] = value
            }
            self.headers = headers
            self.body = body
        }

        public init(status: Int, headers: [String: String], body: Data) {
            self.status = status
            self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
            self.body = body
        }

        public func header(_ name: String) -> String? { headers[name.lowercased()] }

        /// The body as problem details, when it is one.
        var problem: Problem? {
            guard let type = header("Content-Type"), type.lowercased().hasPrefix("application/problem+json") else { return nil }
            return try? JSONDecoder().decode(Problem.self, from: body)
        }

        /// `Retry-After` in delta-seconds (an HTTP date is read as no advice).
        var retryAfter: Duration? {
            guard let text = header("Retry-After")?.trimmingCharacters(in: .whitespaces), let seconds = Int(text), seconds >= 0 else { return nil }
            return .seconds(seconds)
        }

        func decode<Value: Decodable>(_ type: Value.Type) throws(RowKitError) -> Value {
            do {
                return try JSONDecoder().decode(Value.self, from: body)
            } catch {
                throw .coding("\(Value.self) from \(body.count) bytes: \(error)")
            }
        }

        /// Throws the problem of an error answer: 412 as a conflict, any other as `.problem`.
        func throwIfError() throws(RowKitError) {
            guard status >= 400 else { return }
            guard let problem else {
                throw .unexpectedResponse(status: status, detail: String(decoding: body.prefix(200), as: UTF8.self))
            }
            throw status == 412 ? .conflict(problem) : .problem(problem)
        }
    }
}
