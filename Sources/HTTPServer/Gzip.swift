import CZlib

/// gzip through zlib: bodies compressed for `Content-Encoding: gzip`.
///
/// A deflate stream holds about 256 KiB of state, which malloc serves from fresh pages (mmap)
/// and which page-faults on first touch: setting one up per response would cost more than the
/// compression. Streams are kept in a small pool and reset between bodies (`deflateReset`).
/// A stream points into itself, so each lives at a fixed heap address (`DeflateStream`).
enum Gzip {
    /// zlib's default level: one level for every body, so the bytes under one ETag never differ.
    static let level: Int32 = 6

    /// Streams kept for reuse; more are made when all are in use, and dropped past this.
    static let pooledStreams = 8

    private static let pool = Locked<[DeflateStream]>([])

    /// `input` as one gzip member; nil if zlib fails (out of memory).
    static func compress(_ input: [UInt8]) -> [UInt8]? {
        guard let stream = pool.withLock({ $0.popLast() }) ?? DeflateStream(level: level) else { return nil }
        let output = stream.compress(input)
        if output != nil {
            pool.withLock { if $0.count < pooledStreams { $0.append(stream) } }
        }
        return output
    }
}

/// One deflate stream at a fixed address, ended exactly once.
final class DeflateStream: @unchecked Sendable {
    private let stream: UnsafeMutablePointer<z_stream>

    init?(level: Int32) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard CZlib_deflate_init_gzip(stream, level) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    /// Used by one thread at a time: the pool hands each stream to one caller.
    func compress(_ input: [UInt8]) -> [UInt8]? {
        guard deflateReset(stream) == Z_OK else { return nil }
        let bound = Int(deflateBound(stream, uLong(input.count)))
        var finished = false
        let output = input.withUnsafeBufferPointer { source in
            [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.pointee.avail_in = uInt(source.count)
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = uInt(buffer.count)
                finished = deflate(stream, Z_FINISH) == Z_STREAM_END
                count = finished ? buffer.count - Int(stream.pointee.avail_out) : 0
            }
        }
        return finished ? output : nil
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }
}
