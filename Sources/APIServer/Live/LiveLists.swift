import Foundation
import HTTPServer
import Storage

#if canImport(Glibc)
    import Glibc
#endif

/// The open streams of lists (`GET …/changes` with `Accept: text/event-stream`), and the thread
/// that sends them what changed.
///
/// Streams of the same list in the same language (`LiveListFeed.key`) form a group. The thread
/// looks at the store's newest sequence every `pollInterval` (a number in memory while nothing
/// changed; on PostgreSQL the listener moves it for every instance's commits). When it moved,
/// each group reads its feed once from where its streams are and sends every stream the same
/// bytes: a thousand screens on one list cost one read a commit, not a thousand. A stream that
/// opened behind the others (resuming from an older token) reads alone until it caught up, and
/// then reads with them. Every `heartbeat` seconds each stream gets a comment line, which keeps
/// proxies from closing it and finds clients that went away.
///
/// The thread runs only while streams are open.
final class LiveLists: Sendable {
    private struct Subscriber {
        let stream: ResponseStream
        /// The sequence the stream has every change through.
        var after: Int64
        /// The API key the stream was opened with: revoked, it ends the stream.
        let keyID: String?
    }

    private struct Group {
        let feed: LiveListFeed
        var subscribers: [Subscriber]
        /// The `referencesVersion` the group's events last said; nil before the first.
        var references: String?
    }

    private struct State {
        var groups: [String: Group] = [:]
        /// Streams in `groups`.
        var count = 0
        var isRunning = false
        var heartbeatDue: Double = 0
        var keysDue: Double = 0
        /// The newest sequence the groups were read at; nil: read them at the next look.
        var seen: Int64?
        /// A stream opened or closed since the last look.
        var changed = false
    }

    private let state = Locked(State())
    let store: any ItemStore
    /// Streams open at once at most (`StreamSettings.maximum`).
    let maximum: Int
    let heartbeat: Double
    let pollInterval: Double

    init(store: any ItemStore, maximum: Int = StreamSettings().maximum, heartbeat: Double = StreamSettings().heartbeat, pollInterval: Double = 0.01) {
        self.store = store
        self.maximum = maximum
        self.heartbeat = heartbeat
        self.pollInterval = pollInterval
    }

    /// Streams open now.
    var count: Int { state.withLock { $0.count } }

    /// Sends `stream` every change of `feed`'s list after `sequence`, from now on; a 503 when
    /// `maximum` streams are open.
    func subscribe(_ feed: LiveListFeed, after sequence: Int64, stream: ResponseStream, keyID: String?) throws(HTTPError) {
        let start = state.withLock { state -> Bool? in
            guard state.count < maximum else { return nil }
            state.count += 1
            state.changed = true
            state.groups[feed.key, default: Group(feed: feed, subscribers: [])].subscribers.append(
                Subscriber(stream: stream, after: sequence, keyID: keyID))
            guard !state.isRunning else { return false }
            state.isRunning = true
            state.heartbeatDue = Self.now() + heartbeat
            return true
        }
        guard let start else {
            // Spread: the clients refused together do not all come back in the same second.
            throw HTTPError(
                status: 503, code: "TOO_MANY_STREAMS", detail: "This server streams \(maximum) lists at most; try again later.",
                headers: HTTPHeaders([("Retry-After", String(Int.random(in: 2...10)))]))
        }
        guard start else { return }
        let thread = Thread { [self] in run() }
        thread.name = "rowserver-live-lists"
        thread.start()
    }

    private func run() {
        while true {
            let latest = try? store.latestSequence()
            guard let groups = work(at: latest) else {
                // The last stream went: what thousands of them held (libmicrohttpd's connection
                // memory, freed in the middle of the heap) goes back to the system rather than
                // staying in the process's RSS, once libmicrohttpd freed their connections too.
                Thread.sleep(forTimeInterval: 1)
                _ = Self.mallocTrim?(0)
                return
            }
            if let latest {
                var complete = true
                for group in groups where !send(group, through: latest) { complete = false }
                // A read that failed (the store unavailable) is made again at the next look.
                if !complete { state.withLock { $0.seen = nil } }
            }
            beatIfDue()
            endRevokedIfDue()
            Thread.sleep(forTimeInterval: pollInterval)
        }
    }

    /// The groups to read at `latest`: none while nothing committed and no stream opened or
    /// closed since the last look (a look then costs one comparison, however many streams are
    /// open); nil when no stream is left, and the thread then ends.
    private func work(at latest: Int64?) -> [Group]? {
        state.withLock { state in
            let changed = state.changed
            if changed {
                state.changed = false
                for key in Array(state.groups.keys) {
                    let before = state.groups[key]?.subscribers.count ?? 0
                    state.groups[key]?.subscribers.removeAll { !$0.stream.isOpen }
                    state.count -= before - (state.groups[key]?.subscribers.count ?? 0)
                    if state.groups[key]?.subscribers.isEmpty == true { state.groups[key] = nil }
                }
            }
            guard !state.groups.isEmpty else {
                state.isRunning = false
                return nil
            }
            guard changed || latest != state.seen else { return [] }
            state.seen = latest
            return Array(state.groups.values)
        }
    }

    /// A stream ended (its response was destroyed): it leaves its group at the next look.
    func closed() {
        state.withLock { $0.changed = true }
    }

    /// Reads `group`'s feed once for each place its streams are at (usually one) and sends it;
    /// false when a read failed.
    private func send(_ group: Group, through latest: Int64) -> Bool {
        var complete = true
        guard let references = try? group.feed.referencesVersion() else { return false }
        // A stream opened since the last one said it has the version its page was read at, or
        // an older one: a change is said at once.
        let announcing = group.references.map { $0 != references } ?? false
        var places: [Int64: [ResponseStream]] = [:]
        for subscriber in group.subscribers where subscriber.after < latest || announcing {
            places[subscriber.after, default: []].append(subscriber.stream)
        }
        for (after, streams) in places {
            var position = after
            do {
                while true {
                    let read = try group.feed.events(after: position, references: references, announcing: announcing)
                    if !read.bytes.isEmpty { for stream in streams { stream.send(read.bytes) } }
                    // Past `latest` when the read saw later commits; at least `latest` when it
                    // saw none of this list's: every change through it was read.
                    position = read.more ? read.resumeAfter : max(read.resumeAfter, latest)
                    if !read.more { break }
                }
            } catch .changesExpired {
                for stream in streams { stream.finish(Self.expiredEvent) }
            } catch {
                complete = false
            }
            moved(streams, of: group.feed.key, to: position)
        }
        if complete { state.withLock { $0.groups[group.feed.key]?.references = references } }
        return complete
    }

    private func moved(_ streams: [ResponseStream], of key: String, to position: Int64) {
        let moved = Set(streams.map(ObjectIdentifier.init))
        state.withLock { state in
            guard var group = state.groups[key] else { return }
            for index in group.subscribers.indices where moved.contains(ObjectIdentifier(group.subscribers[index].stream)) {
                group.subscribers[index].after = max(group.subscribers[index].after, position)
            }
            state.groups[key] = group
        }
    }

    private func beatIfDue() {
        let streams = state.withLock { state -> [ResponseStream] in
            let now = Self.now()
            guard now >= state.heartbeatDue else { return [] }
            state.heartbeatDue = now + heartbeat
            return state.groups.values.flatMap { $0.subscribers.map(\.stream) }
        }
        for stream in streams { stream.send(Self.heartbeatComment) }
    }

    /// Every `keyCheckInterval` seconds, the keys streams were opened with are looked up (the
    /// store's key cache: a lookup is a read only after keys changed); the streams of a key that
    /// is gone or revoked end with a `revoked` event.
    private func endRevokedIfDue() {
        let opened = state.withLock { state -> [(String, ResponseStream)] in
            let now = Self.now()
            guard now >= state.keysDue else { return [] }
            state.keysDue = now + Self.keyCheckInterval
            return state.groups.values.flatMap { $0.subscribers.compactMap { subscriber in subscriber.keyID.map { ($0, subscriber.stream) } } }
        }
        guard !opened.isEmpty else { return }
        var revoked: [String: Bool] = [:]
        for (id, stream) in opened {
            if revoked[id] == nil {
                let record: APIKeyRecord?
                do {
                    record = try store.keyRecords.current(id: id)
                } catch {
                    // The store cannot answer now: looked up again at the next check.
                    continue
                }
                revoked[id] = record.map { $0.revokedAt != nil } ?? true
            }
            if revoked[id] == true { stream.finish(Self.revokedEvent) }
        }
    }

    static let keyCheckInterval = 0.5
    static let revokedEvent = Array("event: revoked\ndata: {\"code\":\"INVALID_KEY\"}\n\n".utf8)
    /// glibc's `malloc_trim`, which Swift's Glibc module leaves out (`malloc.h`); looked up once.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
            // RTLD_DEFAULT: the symbol wherever the process has it.
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
            return nil
        #endif
    }()

    static let heartbeatComment = Array(":\n\n".utf8)
    /// The event a stream whose token is older than the change log gets before it ends, as the
    /// feed answers 410: read the list again, then stream from its new token.
    static let expiredEvent = Array("event: expired\ndata: {\"code\":\"CHANGES_EXPIRED\"}\n\n".utf8)

    private static func now() -> Double { Date().timeIntervalSinceReferenceDate }
}
