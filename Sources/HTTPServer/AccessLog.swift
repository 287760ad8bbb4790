import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The access log: one JSON line per answered request, written off the request path.
///
/// A request thread writes its line into a buffer under a lock: no system call, and no line of
/// its own to copy. Each request thread has its buffer (`slotCount` of them, shared round past
/// that many threads): with one buffer for all, threads passed its lock and its last bytes
/// between their cores for every line.
///
/// A writer thread writes the buffers out every `flushInterval` (100 ms by default, so a line
/// reaches its file or pipe well within a second of its answer), and `close()`, which a
/// graceful shutdown calls after the last answer, writes the rest: SIGTERM loses no line. When
/// a buffer passes `highWater` (a pipe nobody reads fast enough), the request thread that finds
/// it so writes the buffers out itself: lines are never dropped, and memory stays bounded
/// (`slotCount` × `highWater`).
///
/// Writes happen under their own lock, taken before the buffers are swapped out: each thread's
/// lines reach the file in the order it answered them; between threads, a flush writes one
/// thread's lines, then the next one's (as nginx's workers, each with its buffer), and every
/// line carries its time.
public final class AccessLog: Sendable {
    /// Where the lines go.
    public enum Destination: Sendable, Equatable {
        case standardError
        case standardOutput
        /// Appended to (created with mode 0640 when missing).
        case file(String)
    }

    public struct OpenError: Error, CustomStringConvertible {
        public let path: String
        public let errno: Int32
        public var description: String { "cannot open the access log \(path): \(String(cString: strerror(errno)))" }
    }

    private struct Pending {
        var lines: JSONWriter
        /// The wall-clock second `secondText` spells, so most lines reuse it.
        var second = -1
        var secondText: [UInt8] = []
        /// Keeps another slot's fields off this one's cache line.
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

        init(lines: JSONWriter) { self.lines = lines }
    }

    /// Buffers, one a request thread (`slot()`).
    static let slotCount = 8

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// A regular file takes a buffer in one write: only a pipe, a socket or a terminal, which
    /// other writers may share, is written in `PIPE_BUF` pieces.
    private let writesWhole: Bool
    private let slots: [Locked<Pending>]
    /// Held while a buffer is written out (so buffers reach the file in order); counts them.
    /// Not `Locked<Void>`: ThreadSanitizer sees a zero-sized value share its address with the
    /// lock's field and reports a race that is not there.
    private let writing = Locked(0)
    private let stopped = Atomic<Bool>(false)
    private let writerDone = Atomic<Bool>(false)
    private let flushMicroseconds: UInt32
    private let highWater: Int
    private let failures = Atomic<Int>(0)

    public init(destination: Destination, flushInterval: Double = 0.1, highWater: Int = 1 << 20) throws {
        switch destination {
        case .standardError: (descriptor, ownsDescriptor) = (STDERR_FILENO, false)
        case .standardOutput: (descriptor, ownsDescriptor) = (STDOUT_FILENO, false)
        case .file(let path):
            let opened = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o640)
            guard opened >= 0 else { throw OpenError(path: path, errno: errno) }
            (descriptor, ownsDescriptor) = (opened, true)
        }
        var status = stat()
        writesWhole = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        flushMicroseconds = UInt32(min(1.0, max(0.001, flushInterval)) * 1e6)
        self.highWater = highWater
        slots = (0..<Self.slotCount).map { _ in Locked(Pending(lines: JSONWriter(capacity: Self.initialCapacity))) }
        let thread = Thread { [self] in
            while !stopped.load(ordering: .acquiring) {
                usleep(flushMicroseconds)
                flush()
            }
            writerDone.store(true, ordering: .releasing)
        }
        thread.name = "rowserver.access-log"
        thread.start()
    }

    /// Failed writes since start (a full disk, a closed pipe): each lost the rest of its buffer.
    public var writeFailures: Int { failures.load(ordering: .relaxed) }

    private static let initialCapacity = 64 * 1_024

    /// Appends the line of one answered request.
    public func record(_ request: Request, status: Int, bytes: Int, nanoseconds: UInt64) {
        // What takes more than copying is done before the lock.
        let target = Self.truncated(Self.redacted(request), toBytes: 1_024)
        let client = (request.clientAddress ?? request.peerAddress)?.description
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let full = slot().withLock { pending in
            let second = now.tv_sec
            if second != pending.second {
                pending.second = second
                pending.secondText = Self.timestampPrefix(epochSecond: second)
            }
            pending.lines.beginObject()
            pending.lines.key(Keys.time)
            pending.lines.beginString()
            pending.secondText.withUnsafeBufferPointer { pending.lines.appendToString(utf8: $0) }
            let milliseconds = Int(now.tv_nsec / 1_000_000)
            withUnsafeBytes(of: Self.millisecondsText(milliseconds)) { pending.lines.appendToString(utf8: $0.bindMemory(to: UInt8.self)) }
            pending.lines.endString()
            Self.writeFields(request, client: client, target: target, status: status, bytes: bytes, nanoseconds: nanoseconds, into: &pending.lines)
            return pending.lines.count >= highWater
        }
        if full { flush() }
    }

    /// Writes every line recorded so far.
    public func flush() {
        writing.withLock { written in
            for slot in slots {
                let out = slot.withLock { pending in
                    let out = pending.lines
                    guard out.count > 0 else { return out }
                    pending.lines = JSONWriter(capacity: max(Self.initialCapacity, min(out.count, highWater)))
                    return out
                }
                guard out.count > 0 else { continue }
                out.withUnsafeBytes { raw in
                    if writesWhole {
                        if let base = raw.baseAddress, !writeAll(base.assumingMemoryBound(to: UInt8.self), count: raw.count) {
                            failures.add(1, ordering: .relaxed)
                        }
                    } else {
                        writeLines(raw)
                    }
                }
            }
            written += 1
        }
    }

    /// The calling thread's buffer: each thread is given the next slot on its first line.
    private func slot() -> Locked<Pending> {
        if let value = pthread_getspecific(Self.threadSlot) { return slots[(Int(bitPattern: value) - 1) % slots.count] }
        let index = (Self.nextSlot.wrappingAdd(1, ordering: .relaxed).oldValue & Int.max) % slots.count
        pthread_setspecific(Self.threadSlot, UnsafeRawPointer(bitPattern: index + 1))
        return slots[index]
    }

    /// Each thread's slot number (plus one: nil is none yet), kept for every access log of the process.
    private static let threadSlot: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
    private static let nextSlot = Atomic<Int>(0)

    /// Writes whole lines, at most `PIPE_BUF` bytes per call where lines allow: a pipe keeps each
    /// such write in one piece, so the application log's own lines on the same stderr never land
    /// inside an access-log line.
    private func writeLines(_ raw: UnsafeRawBufferPointer) {
        guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        var start = 0
        while start < raw.count {
            var end = min(raw.count, start + Int(PIPE_BUF))
            if end < raw.count {
                var cut = end
                while cut > start && base[cut - 1] != UInt8(ascii: "\n") { cut -= 1 }
                if cut > start {
                    end = cut
                } else {
                    while end < raw.count && base[end - 1] != UInt8(ascii: "\n") { end += 1 }
                }
            }
            guard writeAll(base + start, count: end - start) else {
                failures.add(1, ordering: .relaxed)
                return
            }
            start = end
        }
    }

    private func writeAll(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        var offset = 0
        while offset < count {
            let written = write(descriptor, bytes + offset, count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Stops the writer thread and writes the rest; lines recorded later are written by the next
    /// `flush` only. Safe to call twice.
    public func close() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // The thread is in its sleep or its flush: wait for it, so a file closed below is not
        // written to afterwards.
        while !writerDone.load(ordering: .acquiring) { usleep(1_000) }
        flush()
        if ownsDescriptor { Glibc.close(descriptor) }
    }

    /// The line after its timestamp: `"id":…,"client":…,"method":…,"route":…,"target":…,"key":…,
    /// "status":…,"bytes":…,"ms":…}` and a newline (`client`, the client's address as the rate
    /// limits see it — behind a trusted proxy, the forwarded one —, when known; `key`, the id of
    /// the request's API key, only when it has one). The target, as the client sent it, is escaped like any JSON string, so
    /// no client can forge a line; a credential in its query is replaced (`redacted`).
    static func line(_ request: Request, status: Int, bytes: Int, nanoseconds: UInt64) -> [UInt8] {
        var writer = JSONWriter(capacity: 160 + request.target.utf8.count)
        writeFields(
            request, client: (request.clientAddress ?? request.peerAddress)?.description, target: truncated(redacted(request), toBytes: 1_024),
            status: status, bytes: bytes, nanoseconds: nanoseconds, into: &writer)
        return writer.bytes
    }

    /// The line's fields after its time, its closing brace and its newline (`line`).
    private static func writeFields(
        _ request: Request, client: String?, target: String, status: Int, bytes: Int, nanoseconds: UInt64, into writer: inout JSONWriter
    ) {
        writer.field(Keys.id, request.id)
        if let client { writer.field(Keys.client, client) }
        writer.field(Keys.method, request.method.rawValue)
        writer.field(Keys.route, request.routeTemplate)
        writer.field(Keys.target, target)
        if let principal = request.principal { writer.field(Keys.key, principal.id) }
        writer.field(Keys.status, status)
        writer.field(Keys.bytes, bytes)
        writer.key(Keys.ms)
        writer.decimal(nanoseconds / 1_000, fractionDigits: 3)
        writer.endObject()
        writer.endLine()
    }

    /// `mmmZ`: three digits, zero-padded, and the zone.
    static func millisecondsText(_ value: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let value = max(0, min(999, value))
        return (
            UInt8(ascii: "0") + UInt8(value / 100), UInt8(ascii: "0") + UInt8(value / 10 % 10), UInt8(ascii: "0") + UInt8(value % 10),
            UInt8(ascii: "Z")
        )
    }

    /// The keys of every line, encoded once rather than escaped again per request.
    private enum Keys {
        static let time = JSONWriter.Key("time")
        static let id = JSONWriter.Key("id")
        static let client = JSONWriter.Key("client")
        static let method = JSONWriter.Key("method")
        static let route = JSONWriter.Key("route")
        static let target = JSONWriter.Key("target")
        static let key = JSONWriter.Key("key")
        static let status = JSONWriter.Key("status")
        static let bytes = JSONWriter.Key("bytes")
        static let ms = JSONWriter.Key("ms")
    }

    /// Query parameters that carry credentials when clients put them where they do not belong.
    public static let credentialParameters: Set<String> = ["access_token", "api_key", "apikey", "key", "token", "secret", "authorization"]

    /// Whether `name` is one of `credentialParameters`, in any case. Every request asks it of
    /// each query parameter: a first letter or a length no credential name has answers without
    /// lowercasing (an allocation) first.
    public static func isCredentialParameter(_ name: String) -> Bool {
        let count = name.utf8.count
        guard let first = name.utf8.first, count >= 3, count <= 13 else { return false }
        switch first | 0x20 {
        case UInt8(ascii: "a"): guard count == 6 || count == 7 || count == 12 || count == 13 else { return false }
        case UInt8(ascii: "k"): guard count == 3 else { return false }
        case UInt8(ascii: "s"), UInt8(ascii: "t"): guard count == 5 || count == 6 else { return false }
        default: return false
        }
        return credentialParameters.contains(name.lowercased())
    }

    /// The target, with the value of each credential parameter of its query replaced by
    /// `REDACTED`: the server refuses such a request, and its log line must not keep the secret.
    static func redacted(_ request: Request) -> String {
        guard request.query.contains(where: { isCredentialParameter($0.name) }),
            let mark = request.target.firstIndex(of: "?")
        else { return request.target }
        let parts = request.target[request.target.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map { part in
            let name = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            var raw = String(name)
            let decoded = raw.withUTF8 { try? PercentDecoding.decode($0, plusAsSpace: true) } ?? raw
            return isCredentialParameter(decoded) ? name + "=REDACTED" : part
        }
        return String(request.target[..<mark]) + "?" + parts.joined(separator: "&")
    }

    /// `text`, cut at a scalar boundary to at most `limit` UTF-8 bytes.
    static func truncated(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        let bytes = text.utf8
        var end = bytes.index(bytes.startIndex, offsetBy: limit)
        // Back over continuation bytes (10xxxxxx) to the start of the scalar being cut.
        while end > bytes.startIndex && bytes[end] & 0xC0 == 0x80 { end = bytes.index(before: end) }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// `2026-11-25T22:29:22.` for a second since the epoch, in UTC.
    static func timestampPrefix(epochSecond: Int) -> [UInt8] {
        var seconds = time_t(epochSecond)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let text =
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))."
        return Array(text.utf8)
    }

}
