import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

// The C callbacks libmicrohttpd calls from its pool threads. Each is a free function that
// captures nothing and recovers the server from `cls` with `Unmanaged` (a closure written in
// main.swift would be main-actor isolated and trap when called from these threads).

/// First word about a request: the raw target, before the path is percent-decoded.
/// Creates the per-request state; its pointer becomes the request's `req_cls`.
func uriLogCallback(cls: UnsafeMutableRawPointer?, uri: UnsafePointer<CChar>?, connection: OpaquePointer?) -> UnsafeMutableRawPointer? {
    guard let cls else { return nil }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    // A raw target that is not UTF-8 becomes "" here and is answered 400 INVALID_PATH.
    let target = uri.flatMap { String(validatingCString: $0) } ?? ""
    let state = RequestState(rawTarget: target, startNanoseconds: monotonicNanoseconds())
    core.requestStateCreated()
    return Unmanaged.passRetained(state).toOpaque()
}

/// The request is over (answered, or the client went away): release its state exactly once.
func requestCompletedCallback(
    cls: UnsafeMutableRawPointer?, connection: OpaquePointer?, reqCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    code: MHD_RequestTerminationCode
) {
    guard let cls else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    if let connection { core.deadlines?.answered(connection) }
    guard let reqCls, let pointer = reqCls.pointee else { return }
    reqCls.pointee = nil
    let state = Unmanaged<RequestState>.fromOpaque(pointer)
    core.requestStateReleased(state.takeUnretainedValue())
    state.release()
}

/// A connection opened, or is about to close its socket: the request deadline's bookends.
func notifyConnectionCallback(
    cls: UnsafeMutableRawPointer?, connection: OpaquePointer?, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    code: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection, let socketContext else { return }
    guard let deadlines = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().deadlines else { return }
    if code == .CONNECTION_NOTIFY_STARTED {
        // The connection holds its clock (retained) until its close notification.
        if let clock = deadlines.opened(socket: CMicroHTTPD_connection_fd(connection)) {
            socketContext.pointee = Unmanaged.passRetained(clock).toOpaque()
        }
    } else if let pointer = socketContext.pointee {
        socketContext.pointee = nil
        let clock = Unmanaged<ConnectionClock>.fromOpaque(pointer)
        deadlines.closed(clock.takeUnretainedValue())
        clock.release()
    }
}

/// Called once with the headers, once per body chunk, once at the end of the body, and once
/// more after a suspended connection resumes.
func accessHandlerCallback(
    cls: UnsafeMutableRawPointer?, connection: OpaquePointer?, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
    version: UnsafePointer<CChar>?, uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>?,
    reqCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let reqCls else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    let state: RequestState
    if let pointer = reqCls.pointee {
        state = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()
    } else {
        // Without the URI-log callback (never in practice) the state starts here instead.
        let fresh = RequestState(rawTarget: url.map { String(cString: $0) } ?? "/", startNanoseconds: monotonicNanoseconds())
        core.requestStateCreated()
        reqCls.pointee = Unmanaged.passRetained(fresh).toOpaque()
        state = fresh
    }
    let chunk: UnsafeRawBufferPointer?
    if let uploadData, let uploadDataSize, uploadDataSize.pointee > 0 {
        chunk = UnsafeRawBufferPointer(start: uploadData, count: uploadDataSize.pointee)
        uploadDataSize.pointee = 0
    } else {
        chunk = nil
    }
    return core.handle(connection: connection, state: state, method: method, version: version, chunk: chunk)
}

/// Collects every header with its real length (`MHD_get_connection_values_n`), so a value
/// with an embedded NUL is seen whole rather than cut short.
func collectHeaderCallback(
    cls: UnsafeMutableRawPointer?, kind: MHD_ValueKind, key: UnsafePointer<CChar>?, keySize: Int,
    value: UnsafePointer<CChar>?, valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let headers = cls.assumingMemoryBound(to: HTTPHeaders.self)
    let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
    let text = value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) } ?? ""
    headers.pointee.add(name, text)
    return .YES
}

func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
