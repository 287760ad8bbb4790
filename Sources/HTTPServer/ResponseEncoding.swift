import Foundation

/// gzip for the clients that accept it: the last change to a response before it is queued.
///
/// A 200 with a compressible type and a body of at least `minimumBytes` is sent gzip-encoded
/// when `Accept-Encoding` allows it (`ContentCoding.preferred`), with `Content-Encoding: gzip`
/// and its ETag marked `-gzip` (`"abc"` → `"abc-gzip"`): the two encodings are different
/// bytes, so they carry different strong tags. Every such response says `Vary: Accept-Encoding`,
/// whichever encoding it has; so does every 304, which cannot know its body's size (a smaller
/// body is never compressed, so it does not vary). A response kept for reuse (a cached page, an
/// explorer asset) carries an `EncodedBodies` box, and its gzip bytes are made once and kept there.
///
/// Handlers know only their own tags: `normalizeConditionals` turns a `-gzip` tag in
/// `If-None-Match` or `If-Match` back into the handler's before routing, and a 304 answering
/// such a tag names the gzip tag again, as it validates the gzip body the client holds.
enum ResponseEncoding {
    static let minimumBytes = 1_024
    private static let quotedSuffix = "-gzip\""
    private static let conditionalHeaders = ["If-None-Match", "If-Match"]
    private static let compressibleTypes = [
        "application/json", "application/problem+json", "application/yaml", "application/javascript", "image/svg+xml", "text/",
    ]

    /// Rewrites the `-gzip` tags of the conditional headers into the handler's own; returns
    /// whether `If-None-Match` named one.
    static func normalizeConditionals(_ headers: inout HTTPHeaders) -> Bool {
        var namedGzip = false
        for name in conditionalHeaders {
            guard let value = headers[name], containsGzipTag(value) else { continue }
            headers.set(name, value.replacingOccurrences(of: quotedSuffix, with: "\""))
            if name == "If-None-Match" { namedGzip = true }
        }
        return namedGzip
    }

    static func encode(_ response: inout Response, for request: Request) {
        if response.status == 304 {
            guard let tag = response.headers["ETag"] else { return }
            response.headers.add("Vary", "Accept-Encoding")
            if request.conditionalNamedGzip, ContentCoding.preferred(acceptEncoding: request.headers["Accept-Encoding"]) == .gzip {
                response.headers.set("ETag", gzipTag(tag))
            }
            return
        }
        // Below `minimumBytes` no client gets gzip, so the body does not vary with
        // Accept-Encoding: no Vary, and no header scans on the path of every small answer.
        guard response.status == 200, response.body.count >= minimumBytes else { return }
        var compressible = false
        var tag: String?
        for field in response.headers {
            if field.name.equalsIgnoringASCIICase("Content-Type") {
                compressible = isCompressible(field.value)
            } else if field.name.equalsIgnoringASCIICase("Content-Encoding") {
                return
            } else if field.name.equalsIgnoringASCIICase("ETag") {
                tag = field.value
            }
        }
        guard compressible else { return }
        response.headers.add("Vary", "Accept-Encoding")
        guard ContentCoding.preferred(acceptEncoding: request.headers["Accept-Encoding"]) == .gzip else { return }
        let compressed: [UInt8]
        if let kept = response.encodedBodies?.gzip.withLock({ $0 }) {
            compressed = kept
        } else {
            guard let made = Gzip.compress(response.body) else { return }
            response.encodedBodies?.keepGzip(made)
            compressed = made
        }
        response.body = compressed
        response.headers.set("Content-Encoding", "gzip")
        if let tag { response.headers.set("ETag", gzipTag(tag)) }
    }

    /// Whether `value` holds `-gzip"` (a tag of a gzip body), by its stored bytes:
    /// `String.contains` goes through Foundation, and the UTF-8 view is slower per byte.
    static func containsGzipTag(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in containsGzipTag(bytes) }
    }

    private static func containsGzipTag(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let suffix: StaticString = "-gzip\""
        return suffix.withUTF8Buffer { suffix in
            var matched = 0
            for byte in bytes {
                if byte == suffix[matched] {
                    matched += 1
                    if matched == suffix.count { return true }
                } else {
                    // No byte of "-gzip\"" repeats its first, so a mismatch restarts at this byte.
                    matched = byte == suffix[0] ? 1 : 0
                }
            }
            return false
        }
    }

    /// `"abc"` → `"abc-gzip"`, `W/"abc"` → `W/"abc-gzip"`; anything unquoted is left alone.
    static func gzipTag(_ tag: String) -> String {
        guard tag.hasSuffix("\""), tag.utf8.count >= 2 else { return tag }
        return String(tag.dropLast()) + quotedSuffix
    }

    /// Whether `contentType` starts with one of `compressibleTypes`, ignoring ASCII case.
    static func isCompressible(_ contentType: String) -> Bool {
        let matched = contentType.utf8.withContiguousStorageIfAvailable { type in
            compressibleTypes.contains { prefix in prefix.utf8.withContiguousStorageIfAvailable { ASCIICase.hasPrefix(type, $0) } ?? false }
        }
        return matched ?? compressibleTypes.contains { ASCIICase.hasPrefix(Array(contentType.utf8), Array($0.utf8)) }
    }
}

/// The encoded forms of a response body kept for reuse, shared by every copy of the response
/// (a reference in a value): a cached page is compressed on its first gzip hit only.
public final class EncodedBodies: Sendable {
    let gzip = Locked<[UInt8]?>(nil)
    private let onFill: (@Sendable (Int) -> Void)?

    /// `onFill` learns the size of each encoded body when it is kept: a cache counts those bytes
    /// against its budget too.
    public init(onFill: (@Sendable (Int) -> Void)? = nil) {
        self.onFill = onFill
    }

    /// The bytes kept in encoded forms.
    public var byteCount: Int { gzip.withLock { $0?.count ?? 0 } }

    /// Keeps `body` as the gzip form unless a concurrent first hit kept one already (both
    /// compressed the same bytes), so a body is counted once.
    func keepGzip(_ body: [UInt8]) {
        let kept = gzip.withLock { stored in
            guard stored == nil else { return false }
            stored = body
            return true
        }
        if kept { onFill?(body.count) }
    }
}
