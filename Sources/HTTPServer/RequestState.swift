import CMicroHTTPD

/// What the server knows about one request while libmicrohttpd processes it.
///
/// Created in the URI-log callback (the first thing libmicrohttpd reports about a request, with
/// the raw target) and released exactly once in the request-completed callback, which the
/// library also calls when the client aborts. Between the two, only the connection's own pool
/// thread touches it, except while an async handler runs: then the connection is suspended and
/// the handler's task owns it until `MHD_resume_connection`, whose internal mutex orders the
/// hand-over. Hence `@unchecked Sendable`.
final class RequestState: @unchecked Sendable {
    enum Phase {
        /// No access-handler call yet.
        case new
        /// Headers checked; the body (if any) is arriving.
        case receiving
        /// An async handler is running; the connection is suspended.
        case suspended
        /// The async handler finished; its response waits to be queued.
        case resumed
        /// A response was queued; later calls only drain body bytes.
        case responded
    }

    let rawTarget: String
    let startNanoseconds: UInt64
    var phase: Phase = .new
    /// Filled in place as the request is read; handlers get a copy.
    var request: Request
    var body: [UInt8] = []
    /// Body bytes seen past the size limit: counted and dropped, never buffered.
    var discardedBytes = 0
    var pendingResponse: Response?
    var connection: OpaquePointer?
    /// Set once a handler took the request (its answer is under way): counted by the core
    /// until the request completes, so shutdown can let those answers out.
    var isAnswering = false

    init(rawTarget: String, startNanoseconds: UInt64) {
        self.rawTarget = rawTarget
        self.startNanoseconds = startNanoseconds
        self.request = Request(method: .GET, target: rawTarget, id: "")
    }
}
