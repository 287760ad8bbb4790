/// The streamed responses a server is sending (`ResponseStream`): what its shutdown ends, each
/// with its farewell, before it stops libmicrohttpd (which aborts the process when stopped with
/// a connection still suspended, as an idle stream's is).
final class StreamRegistry: Sendable {
    private struct Streams {
        var open: [ObjectIdentifier: ResponseStream] = [:]
        var isClosed = false
    }

    private let streams = Locked(Streams())

    /// Adds `stream`; false once the server is shutting down (the stream is then finished).
    func add(_ stream: ResponseStream) -> Bool {
        let added = streams.withLock { streams in
            guard !streams.isClosed else { return false }
            streams.open[ObjectIdentifier(stream)] = stream
            return true
        }
        if !added { stream.finish(stream.farewell) }
        return added
    }

    func remove(_ stream: ResponseStream) {
        _ = streams.withLock { $0.open.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    var count: Int { streams.withLock { $0.open.count } }

    /// Finishes every stream with its farewell, and every stream added from now on.
    func finishAll() {
        let open = streams.withLock { streams in
            streams.isClosed = true
            return Array(streams.open.values)
        }
        for stream in open { stream.finish(stream.farewell) }
    }
}
