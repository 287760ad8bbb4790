import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The connection to one rowserver: it sends requests to the links the server gave, retries
/// while the server says it is unavailable, and turns every error into a `RowKitError`.
///
/// It never builds a URL: every link is the server's, resolved against `baseURL` as a browser
/// resolves a relative link.
public final class RowClient: Sendable {
    public struct Configuration: Sendable {
        /// Where the server is: `http://localhost:8080`.
        public var baseURL: URL
        /// An API key, sent as `Authorization: Bearer`: every write needs one with a write scope, and reads of a collection that says `read: key` one with a read scope.
        public var key: String?
        /// `Accept-Language`: the locale the server formats rows in (en-US when nil).
        public var language: String?
        /// How often a request is sent in all while the server answers 503.
        public var maxAttempts: Int = 4
        /// The longest wait between two attempts, whatever `Retry-After` says.
        public var maxRetryDelay: Duration = .seconds(30)
        /// The first wait when a 503 has no `Retry-After`; it doubles on each attempt.
        public var initialRetryDelay: Duration = .milliseconds(250)

        public init(baseURL: URL, key: String? = nil, language: String? = nil) {
            self.baseURL = baseURL
            self.key = key
            self.language = language
        }
    }

    public let configuration: Configuration
    let session: URLSession

    public init(configuration: Configuration, session: URLSession? = nil) {
        self.configuration = configuration
        self.session = session ?? RowClient.makeSession()
    }

    public convenience init(baseURL: URL, key: String? = nil, language: String? = nil) {
        self.init(configuration: Configuration(baseURL: baseURL, key: key, language: language))
    }

    /// A session with no cache of its own: revalidation is RowKit's (If-None-Match), so a 304
    /// must reach it rather than be answered from a local copy.
    static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }

    /// `GET /v1`: the collections and the links of their views.
    public func index() async throws(RowKitError) -> ServiceIndex {
        try await get(ServiceIndex.self, "/v1").decoded
    }

    /// One page of a list link (a collection's view, or a page's `links.next`).
    public func page(_ link: String, ifNoneMatch etag: String? = nil) async throws(RowKitError) -> Fetched<Page> {
        try await get(Page.self, link, ifNoneMatch: etag)
    }

    /// One answer of a change feed link.
    public func changes(_ link: String) async throws(RowKitError) -> ChangeFeed {
        try await get(ChangeFeed.self, link).decoded
    }

    /// A list's letter index, by its page's `links.index`.
    public func letters(_ link: String) async throws(RowKitError) -> LetterIndex {
        try await get(LetterIndex.self, link).decoded
    }

    /// An item's detail, by the link a row, a section or a write gave.
    public func detail(_ link: String) async throws(RowKitError) -> Detail {
        let response = try await send(Request(method: "GET", link: link))
        return try Detail(link: link, response: response)
    }

    /// Reads `link` and decodes its JSON; a 304 to `ifNoneMatch` is `.notModified`.
    public func get<Value: Decodable & Sendable>(_ type: Value.Type, _ link: String, ifNoneMatch etag: String? = nil)
        async throws(RowKitError) -> Fetched<Value>
    {
        var request = Request(method: "GET", link: link)
        if let etag { request.headers["If-None-Match"] = etag }
        let response = try await send(request)
        if response.status == 304 { return .notModified }
        return .modified(try response.decode(Value.self), etag: response.header("ETag"))
    }

    /// Sends a request, retrying while the server answers 503 (after its `Retry-After`, else
    /// with a doubling delay; never a POST), and returns any answer below 400 or a 304; an error
    /// answer is thrown.
    public func send(_ request: Request) async throws(RowKitError) -> Response {
        let urlRequest = try makeURLRequest(request)
        var attempt = 1
        while true {
            let response: Response
            do {
                let (data, urlResponse) = try await Self.data(for: urlRequest, in: session)
                guard let http = urlResponse as? HTTPURLResponse else {
                    throw RowKitError.unexpectedResponse(status: 0, detail: "not an HTTP answer")
                }
                response = Response(http, body: data)
            } catch let error as RowKitError {
                throw error
            } catch is CancellationError {
                throw .cancelled
            } catch let error as URLError where error.code == .cancelled {
                throw .cancelled
            } catch {
                guard request.method == "GET", attempt < configuration.maxAttempts else {
                    throw .transport(String(describing: error))
                }
                try await pause(before: attempt + 1, retryAfter: nil)
                attempt += 1
                continue
            }
            if response.status == 503 {
                // A create is not sent twice: a 503 that came after its commit (a shutdown's grace
                // ran out) would make a duplicate. Changes and deletes carry If-Match.
                guard attempt < configuration.maxAttempts, request.method != "POST" else { throw .unavailable(response.problem) }
                try await pause(before: attempt + 1, retryAfter: response.retryAfter)
                attempt += 1
                continue
            }
            try response.throwIfError()
            return response
        }
    }

    /// One exchange that a cancelled task stops at once: `URLSession.data(for:)` on Linux
    /// (swift-corelibs-foundation) runs to the end whatever the task's cancellation.
    private static func data(for request: URLRequest, in session: URLSession) async throws -> (Data, URLResponse) {
        let running = RunningTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let data, let response {
                        continuation.resume(returning: (data, response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                running.start(task)
            }
        } onCancel: {
            running.cancel()
        }
    }

    private func pause(before attempt: Int, retryAfter: Duration?) async throws(RowKitError) {
        let doubling = configuration.initialRetryDelay * (1 << min(attempt - 2, 16))
        let delay = min(retryAfter ?? doubling, configuration.maxRetryDelay)
        do {
            try await Task.sleep(for: delay)
        } catch {
            throw .cancelled
        }
    }

    func makeURLRequest(_ request: Request) throws(RowKitError) -> URLRequest {
        guard let url = URL(string: request.link, relativeTo: configuration.baseURL)?.absoluteURL else {
            throw .invalidLink(request.link)
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        urlRequest.setValue("application/json, application/problem+json", forHTTPHeaderField: "Accept")
        if let key = configuration.key { urlRequest.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        if let language = configuration.language { urlRequest.setValue(language, forHTTPHeaderField: "Accept-Language") }
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        return urlRequest
    }
}

/// The answer of a conditional read: a new value and its ETag, or "what you have is current".
public enum Fetched<Value: Sendable>: Sendable {
    case modified(Value, etag: String?)
    case notModified

    /// The value; for a read without `If-None-Match`, which is never answered 304.
    var decoded: Value {
        get throws(RowKitError) {
            guard case .modified(let value, _) = self else {
                throw .unexpectedResponse(status: 304, detail: "304 to a request without If-None-Match")
            }
            return value
        }
    }
}

/// A data task and whether its Swift task was cancelled, whichever comes first.
private final class RunningTask: Sendable {
    private let state = Mutex<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))

    func start(_ task: URLSessionDataTask) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        task.resume()
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
