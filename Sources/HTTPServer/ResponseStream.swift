import CMicroHTTPD

/// A response body written while it is sent (server-sent events): the application pushes bytes
/// (`send`) from any thread, libmicrohttpd pulls them as the client's socket takes them, and the
/// response ends when the application finishes it or the client goes away.
///
/// An idle stream holds no thread: when libmicrohttpd asks for bytes and none wait, the reader
/// suspends the connection (libmicrohttpd stops polling it) and returns 0, the pattern
/// `microhttpd.h` gives for "no body data yet"; the next `send` or `finish` resumes it. What
/// waits is bounded (`limit`): a client that stops reading while more arrives is dropped (its
/// connection ends with an error at the next read, or by the connection timeout while its
/// socket stays full), never the server.
///
/// `@unchecked Sendable`: every field is behind `state`'s lock. The lock is taken before
/// libmicrohttpd's own (suspend and resume are called under it) and never inside one of its
/// callbacks' other locks, so the order is always ours, then libmicrohttpd's.
public final class ResponseStream: @unchecked Sendable {
    private struct State {
        var pending: [UInt8] = []
        /// Where the unsent bytes of `pending` start (sent bytes are dropped in bulk).
        var start = 0
        var isFinished = false
        var isDropped = false
        /// The response was destroyed: its connection is gone, and nothing is sent any more.
        var isClosed = false
        /// The connection while the reader has it suspended; nil otherwise.
        var parked: OpaquePointer?
        var connection: OpaquePointer?
        /// The server's streams, which drop this one when it closes.
        var registry: StreamRegistry?
    }

    private let state = Locked(State())
    /// The most bytes that may wait for the client.
    public let limit: Int
    /// What the stream ends with when the server shuts down (a last event saying so).
    public let farewell: [UInt8]
    /// Called once, on libmicrohttpd's thread, when the response is destroyed (the client went
    /// away, the stream finished and its bytes were sent, or the server stopped).
    private let onClose: @Sendable () -> Void

    public init(limit: Int = 256 * 1024, farewell: [UInt8] = [], onClose: @escaping @Sendable () -> Void = {}) {
        self.limit = limit
        self.farewell = farewell
        self.onClose = onClose
    }

    /// Queues `bytes` for the client; false when the stream is closed, finished or dropped (the
    /// caller can forget it).
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.isClosed, !state.isFinished, !state.isDropped else { return false }
            if state.pending.count - state.start + bytes.count > limit {
                state.isDropped = true
                state.pending = []
                state.start = 0
            } else {
                state.pending.append(contentsOf: bytes)
            }
            Self.unpark(&state)
            return !state.isDropped
        }
    }

    /// Ends the stream once the bytes queued so far (and `last`) are sent.
    public func finish(_ last: [UInt8] = []) {
        state.withLock { state in
            guard !state.isClosed, !state.isFinished else { return }
            if !state.isDropped { state.pending.append(contentsOf: last) }
            state.isFinished = true
            Self.unpark(&state)
        }
    }

    /// Whether the client can still get what is sent.
    public var isOpen: Bool { state.withLock { !$0.isClosed && !$0.isFinished && !$0.isDropped } }

    private static func unpark(_ state: inout State) {
        guard let connection = state.parked else { return }
        state.parked = nil
        MHD_resume_connection(connection)
    }

    /// A libmicrohttpd response that reads this stream on `connection`; nil when libmicrohttpd
    /// cannot make one.
    func response(on connection: OpaquePointer, registry: StreamRegistry) -> OpaquePointer? {
        state.withLock { state in
            state.connection = connection
            state.registry = registry
        }
        let box = Unmanaged.passRetained(self)
        // libmicrohttpd keeps a buffer of this size per stream: events are small, and an idle
        // stream held 3 KiB more with 4 KiB (Benchmarks/streams.py).
        let made = MHD_create_response_from_callback(CMicroHTTPD_SIZE_UNKNOWN, 1024, readStream, box.toOpaque(), closeStream)
        // On failure libmicrohttpd never calls the free callback: the reference is still ours.
        if made == nil { box.release() }
        return made
    }

    /// libmicrohttpd asks for up to `room` bytes.
    fileprivate func read(into buffer: UnsafeMutablePointer<CChar>, room: Int) -> Int {
        state.withLock { state in
            if state.isDropped { return CMicroHTTPD_CONTENT_READER_END_WITH_ERROR }
            let waiting = state.pending.count - state.start
            if waiting > 0 {
                let count = min(room, waiting)
                let start = state.start
                state.pending.withUnsafeBytes { bytes in
                    guard let base = bytes.baseAddress else { return }
                    UnsafeMutableRawPointer(buffer).copyMemory(from: base + start, byteCount: count)
                }
                state.start += count
                if state.start == state.pending.count {
                    state.pending.removeAll(keepingCapacity: state.pending.capacity <= 16 * 1024)
                    state.start = 0
                }
                return count
            }
            if state.isFinished { return CMicroHTTPD_CONTENT_READER_END_OF_STREAM }
            guard let connection = state.connection else { return CMicroHTTPD_CONTENT_READER_END_WITH_ERROR }
            state.parked = connection
            MHD_suspend_connection(connection)
            return 0
        }
    }

    fileprivate func closed() {
        let registry = state.withLock { state in
            state.isClosed = true
            state.parked = nil
            state.connection = nil
            state.pending = []
            defer { state.registry = nil }
            return state.registry
        }
        registry?.remove(self)
        onClose()
    }
}

/// libmicrohttpd's content reader for a `ResponseStream`.
private func readStream(_ cls: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ room: Int) -> Int {
    guard let cls, let buffer else { return CMicroHTTPD_CONTENT_READER_END_WITH_ERROR }
    return Unmanaged<ResponseStream>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, room: room)
}

/// libmicrohttpd's free callback for a `ResponseStream`: called once, when the response is destroyed.
private func closeStream(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    let stream = Unmanaged<ResponseStream>.fromOpaque(cls)
    stream.takeUnretainedValue().closed()
    stream.release()
}
