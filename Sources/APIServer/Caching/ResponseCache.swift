import HTTPServer
import Synchronization

/// Finished responses by their strong ETag, so a repeated GET costs a lookup instead of a
/// query and an encoding.
///
/// Correct by construction rather than by invalidation: a list's tag digests the versions of
/// the collections it reads (bumped by every committed change), the request target and the
/// locale, so any change that could alter the bytes changes the key, and a stale entry can
/// only age out, never be served. Bounded by entries and by bytes; when full, the oldest
/// half is dropped (cheap, and hot pages come straight back).
final class ResponseCache: Sendable {
    private struct State {
        var entries: [String: (response: Response, order: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let state = Locked(State())
    let maxEntries: Int
    let maxBytes: Int

    init(maxEntries: Int = 2_048, maxBytes: Int = 32 * 1024 * 1024) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    func lookup(_ tag: String) -> Response? {
        state.withLock { $0.entries[tag]?.response }
    }

    func store(_ response: Response, for tag: String) {
        let size = response.body.count
        guard maxEntries > 0, size <= maxBytes / 16 else { return }
        state.withLock { state in
            state.clock &+= 1
            if let old = state.entries.updateValue((response, state.clock), forKey: tag) {
                state.bytes -= old.response.body.count
            }
            state.bytes += size
            if state.entries.count > maxEntries || state.bytes > maxBytes {
                Self.evictOldestHalf(&state)
            }
        }
    }

    var count: Int { state.withLock { $0.entries.count } }

    private static func evictOldestHalf(_ state: inout State) {
        let cutoff = state.entries.values.map(\.order).sorted()[state.entries.count / 2]
        state.entries = state.entries.filter { $0.value.order > cutoff }
        state.bytes = state.entries.values.reduce(0) { $0 + $1.response.body.count }
    }
}
