import CMicroHTTPD
import Logging
import Synchronization

/// The object behind libmicrohttpd's `cls` pointers: it turns callbacks into `Request`s,
/// runs the pipeline (framing → target → route → handler → errors → headers) and queues the
/// response. Shared by every pool thread; its mutable state is atomics and mutexes.
final class ServerCore: Sendable {
    let configuration: ServerConfiguration
    let router: Router
    /// Run in order before routing (`RequestStage`).
    let stages: [any RequestStage]
    /// Run in order on every answer before it is queued: request id, the application's, content
    /// coding, CORS (`ResponseStage`).
    let responseStages: [any ResponseStage]
    let cors: CORSPolicy
    let logger: Logger
    let observer: RequestObserver
    /// nil when `requestTimeout` is 0.
    let deadlines: RequestDeadlineWatchdog?

    private let liveStates = Atomic<Int>(0)
    private let createdStates = Atomic<Int>(0)
    private let answeringStates = Atomic<Int>(0)
    let isShuttingDown = Atomic<Bool>(false)
    /// Connections suspended while an async handler runs. Whoever removes an entry resumes it,
    /// under the same lock, so that once shutdown has closed the table (`isClosed`) no
    /// connection is suspended or half-resumed: libmicrohttpd aborts the process when it is
    /// stopped with one still suspended.
    private let suspended = Locked<Suspensions>(Suspensions())
    /// The streamed responses being sent, which shutdown ends first.
    let streams = StreamRegistry()

    private struct Suspensions {
        var entries: [ObjectIdentifier: SuspendedConnection] = [:]
        var isClosed = false
    }

    init(
        configuration: ServerConfiguration, router: Router, stages: [any RequestStage] = [], responseStages: [any ResponseStage] = [],
        logger: Logger, observer: RequestObserver
    ) {
        self.configuration = configuration
        self.router = router
        self.stages = stages
        let cors = CORSPolicy(allowedOrigins: configuration.allowedOrigins)
        self.cors = cors
        self.responseStages = [RequestIDHeader()] + responseStages + [ContentCodingStage()] + (cors.isEnabled ? [cors] : [])
        self.logger = logger
        self.observer = observer
        self.deadlines = configuration.requestTimeout > 0 ? RequestDeadlineWatchdog(deadline: configuration.requestTimeout) : nil
    }

    func requestStateCreated() {
        liveStates.add(1, ordering: .relaxed)
        createdStates.add(1, ordering: .relaxed)
    }

    func requestStateReleased(_ state: RequestState) {
        if state.isAnswering { answeringStates.subtract(1, ordering: .relaxed) }
        liveStates.subtract(1, ordering: .relaxed)
    }

    /// The request's answer is under way (a handler took it, or a response is queued).
    private func markAnswering(_ state: RequestState) {
        guard !state.isAnswering else { return }
        state.isAnswering = true
        answeringStates.add(1, ordering: .relaxed)
    }

    /// Requests whose state exists: begun and not yet completed or aborted.
    var liveRequestCount: Int { liveStates.load(ordering: .relaxed) }
    var totalRequestCount: Int { createdStates.load(ordering: .relaxed) }
    /// Requests a handler took (or that have a response queued) and that have not completed:
    /// the ones shutdown must not cut off once their answer exists.
    var answeringRequestCount: Int { answeringStates.load(ordering: .relaxed) }

    // MARK: - The access handler's state machine

    /// Bytes of an oversize chunked body drained before the connection is dropped.
    static func drainLimit(_ maxBodySize: Int) -> Int { max(64 * 1024, maxBodySize) }

    /// `method` and `version` are libmicrohttpd's C strings: read on the first call only (a
    /// request without a body makes two calls, one with a body three or more).
    func handle(
        connection: OpaquePointer, state: RequestState, method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?, chunk: UnsafeRawBufferPointer?
    ) -> MHD_Result {
        switch state.phase {
        case .new:
            state.phase = .receiving
            do {
                try begin(
                    connection: connection, state: state, method: method.map { String(cString: $0) } ?? "",
                    version: version.map { String(cString: $0) } ?? "HTTP/1.1")
            } catch {
                return queue(ProblemDetails.response(for: error), connection: connection, state: state)
            }
            // Never queue on the first call of a body-less request: libmicrohttpd would then
            // close the keep-alive connection. The second call comes at once.
            return .YES
        case .receiving:
            if let chunk {
                // libmicrohttpd cannot queue a response mid-body; a chunked body that passes the
                // limit is drained without buffering and answered 413 when it ends. A client that
                // keeps sending well past the limit loses its connection instead.
                if state.discardedBytes > 0 || state.body.count + chunk.count > configuration.maxBodySize {
                    state.body = []
                    state.discardedBytes += chunk.count
                    return state.discardedBytes > Self.drainLimit(configuration.maxBodySize) ? .NO : .YES
                }
                state.body.append(contentsOf: chunk)
                return .YES
            }
            if state.discardedBytes > 0 {
                return queue(ProblemDetails.response(for: .payloadTooLarge(limit: configuration.maxBodySize)), connection: connection, state: state)
            }
            state.request.body = state.body
            state.body = []
            return dispatch(connection: connection, state: state)
        case .suspended:
            return .YES
        case .resumed:
            let response = state.pendingResponse ?? ProblemDetails.response(for: .serviceUnavailable("The server is shutting down."))
            state.pendingResponse = nil
            return queue(response, connection: connection, state: state)
        case .responded:
            return .YES
        }
    }

    /// Reads the method, headers and target, and checks framing: everything that can be
    /// decided before the body arrives.
    private func begin(connection: OpaquePointer, state: RequestState, method: String, version: String) throws(HTTPError) {
        withUnsafeMutablePointer(to: &state.request.headers) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, collectHeaderCallback, pointer)
        }
        state.request.id = RequestID.accept(state.request.headers["X-Request-ID"]) ?? RequestID.generate()
        state.request.conditionalNamedGzip = ResponseEncoding.normalizeConditionals(&state.request.headers)
        state.request.version = version
        var address = (UInt64(0), UInt64(0))
        if withUnsafeMutableBytes(of: &address, { CMicroHTTPD_connection_client_ip(connection, $0.baseAddress?.assumingMemoryBound(to: UInt8.self)) })
            == 0
        {
            let peer = withUnsafeBytes(of: &address) { IPAddress(bytes: $0) }
            state.request.peerAddress = peer
            state.request.clientAddress = configuration.trustedProxies.client(peer: peer, headers: state.request.headers)
        }
        _ = try RequestFraming.check(headers: state.request.headers, version: version, maxBodySize: configuration.maxBodySize)
        let target = try RequestTarget.parse(state.rawTarget)
        guard let known = HTTPMethod(token: method) else { throw unknownMethod(method, segments: target.segments) }
        state.request.method = known
        state.request.path = target.path
        state.request.segments = target.segments
        state.request.query = target.query
    }

    /// A method this server does not know (`BREW`, lowercase `get`) is the client's mistake, so
    /// a 4xx rather than RFC 9110's suggested 501: 405 with the path's `Allow` list, as for a
    /// known method the path does not route, or 404 where no route lives. A 5xx would count
    /// client garbage as server failures in every health check and error budget. The
    /// connection closes: a body of an unknown method cannot be trusted to be framed as one.
    private func unknownMethod(_ method: String, segments: [String]) -> HTTPError {
        var error: HTTPError
        if let allowed = router.allowedMethods(segments) {
            error = .methodNotAllowed(String(method.prefix(32)), allowed: allowed)
        } else {
            error = .notFound()
        }
        error.closesConnection = true
        return error
    }

    private func dispatch(connection: OpaquePointer, state: RequestState) -> MHD_Result {
        switch route(&state.request) {
        case .response(let response):
            state.request.body = []
            return queue(response, connection: connection, state: state)
        case .deferred(let handler):
            let request = state.request
            state.request.body = []
            return suspend(connection: connection, state: state, request: request, handler: handler)
        }
    }

    private enum Routed {
        case response(Response)
        case deferred(@Sendable (Request) async throws -> Response)
    }

    private func route(_ request: inout Request) -> Routed {
        if request.method == .OPTIONS {
            if request.target == "*" {
                return .response(cors.preflight(allowed: HTTPMethod.allCases.map(\.rawValue), request: request))
            }
            guard let allowed = router.allowedMethods(request.segments) else {
                return .response(ProblemDetails.response(for: .notFound()))
            }
            return .response(cors.preflight(allowed: allowed, request: request))
        }
        var refusal: (any Error)?
        for stage in stages where refusal == nil || stage.runsAfterRefusal {
            do {
                try stage.prepare(&request)
            } catch {
                refusal = error
            }
        }
        if let refusal { return .response(Self.failure(refusal, request, logger: logger)) }
        switch router.match(request.method, request.segments) {
        case .notFound:
            return .response(ProblemDetails.response(for: .notFound()))
        case .methodNotAllowed(let allowed, let template, let routeIndex):
            request.routeTemplate = template
            request.routeIndex = routeIndex
            return .response(ProblemDetails.response(for: .methodNotAllowed(request.method.rawValue, allowed: allowed)))
        case .found(let handler, let parameters, let template, let routeIndex):
            request.parameters = parameters
            request.routeTemplate = template
            request.routeIndex = routeIndex
            switch handler {
            case .sync(let body):
                return .response(Self.run(body, request, logger: logger))
            case .async(let body):
                return .deferred(body)
            }
        }
    }

    static func run(_ body: (Request) throws -> Response, _ request: Request, logger: Logger) -> Response {
        do {
            return try body(request)
        } catch {
            return failure(error, request, logger: logger)
        }
    }

    static func runAsync(_ body: @Sendable (Request) async throws -> Response, _ request: Request, logger: Logger) async -> Response {
        do {
            return try await body(request)
        } catch {
            return failure(error, request, logger: logger)
        }
    }

    /// The one place a handler's error becomes its answer. A 5xx from another layer's error
    /// (the store's) or an error that says nothing of HTTP is logged with its own description,
    /// which the client never sees.
    static func failure(_ error: any Error, _ request: Request, logger: Logger) -> Response {
        if let error = error as? HTTPError { return ProblemDetails.response(for: error) }
        let answer = (error as? any HTTPResponseError)?.httpError ?? .internalError()
        if answer.status >= 500 {
            logger.error(
                "handler failed",
                metadata: ["request_id": .string(request.id), "status": .stringConvertible(answer.status), "error": .string("\(error)")])
        }
        return ProblemDetails.response(for: answer)
    }

    // MARK: - Suspension for async handlers

    private func suspend(
        connection: OpaquePointer, state: RequestState, request: Request, handler: @escaping @Sendable (Request) async throws -> Response
    ) -> MHD_Result {
        state.phase = .suspended
        state.connection = connection
        markAnswering(state)
        deadlines?.answering(connection)
        let entry = SuspendedConnection(state: state)
        let isSuspended = suspended.withLock { table -> Bool in
            guard !table.isClosed else { return false }
            MHD_suspend_connection(connection)
            table.entries[ObjectIdentifier(state)] = entry
            return true
        }
        guard isSuspended else {
            return queue(ProblemDetails.response(for: .serviceUnavailable("The server is shutting down.")), connection: connection, state: state)
        }
        let logger = logger
        Task(executorPreference: HandlerExecutor.shared) {
            let response = await Self.runAsync(handler, request, logger: logger)
            self.resume(entry, with: response)
        }
        return .YES
    }

    /// Resumes a suspended connection once; a second call for the same entry does nothing.
    func resume(_ entry: SuspendedConnection, with response: Response) {
        suspended.withLock { table in
            guard table.entries.removeValue(forKey: ObjectIdentifier(entry.state)) != nil else { return }
            Self.resume(entry, with: response)
        }
    }

    /// Shutdown past its grace period: answer every still-suspended request with 503, and
    /// suspend no connection from now on (later async requests get 503 at once).
    func resumeAllSuspended() {
        suspended.withLock { table in
            table.isClosed = true
            for entry in table.entries.values {
                Self.resume(entry, with: ProblemDetails.response(for: .serviceUnavailable("The server is shutting down.")))
            }
            table.entries.removeAll()
        }
    }

    private static func resume(_ entry: SuspendedConnection, with response: Response) {
        guard let connection = entry.state.connection else { return }
        entry.state.pendingResponse = response
        entry.state.phase = .resumed
        MHD_resume_connection(connection)
    }

    // MARK: - Queueing

    /// `response` is consumed: the caller's last use hands over its header array, so the stages'
    /// first change does not copy it (a fresh answer's did, one allocation a request).
    private func queue(_ response: consuming Response, connection: OpaquePointer, state: RequestState) -> MHD_Result {
        state.phase = .responded
        markAnswering(state)
        deadlines?.answering(connection)
        if state.request.id.isEmpty { state.request.id = RequestID.generate() }
        // One copy of the request for the stages and the observer: each read of the class's
        // property would copy its dozen references again.
        let request = state.request
        for stage in responseStages { stage.decorate(&response, for: request) }
        if isShuttingDown.load(ordering: .relaxed) { response.headers.set("Connection", "close") }
        let result: MHD_Result
        let made: OpaquePointer?
        if let stream = response.stream {
            // Added during shutdown, it is finished already and sends its farewell alone.
            _ = streams.add(stream)
            made = stream.response(on: connection, registry: streams)
        } else {
            made = LentBody.response(response.body)
        }
        if let mhdResponse = made {
            for field in response.headers {
                // withCString copies small strings to the stack; implicit bridging would
                // allocate a C string per argument.
                _ = field.name.withCString { name in
                    field.value.withCString { value in MHD_add_response_header(mhdResponse, name, value) }
                }
            }
            result = MHD_queue_response(connection, UInt32(response.status), mhdResponse)
            MHD_destroy_response(mhdResponse)
        } else {
            result = .NO
        }
        observer.record(
            request, status: response.status, bytes: response.body.count,
            nanoseconds: monotonicNanoseconds() &- state.startNanoseconds)
        return result
    }
}

/// A suspended connection's state, passed to the task that will resume it.
struct SuspendedConnection: @unchecked Sendable {
    let state: RequestState
}
