/// Checks a request's message framing before its body is read.
///
/// libmicrohttpd 0.9.75 accepts framings that let a client hide a second request inside the
/// first (request smuggling, RFC 9112 §6.1 and §11.2); nginx rejects them since 1.21.1 and so
/// does rowserver. A failed check is a 400 that closes the connection, so the bytes after the
/// headers are never read as a request.
public enum RequestFraming {
    /// The body length the request declares: a fixed length, chunked, or none.
    public enum BodyLength: Equatable, Sendable {
        case none
        case fixed(Int)
        case chunked
    }

    public static func check(headers: HTTPHeaders, version: String, maxBodySize: Int) throws(HTTPError) -> BodyLength {
        // RFC 9112 §3.2: an HTTP/1.1 request without exactly one Host is a 400; libmicrohttpd
        // in its lenient mode lets it through. One pass counts the fields that matter: this runs
        // on every request, and an array or a scan per name would cost more.
        var hosts = 0
        var lengths = 0
        var encodings = 0
        var firstLength: String?
        var firstEncoding: String?
        for field in headers {
            if field.name.equalsIgnoringASCIICase("Host") {
                hosts += 1
            } else if field.name.equalsIgnoringASCIICase("Content-Length") {
                lengths += 1
                if firstLength == nil { firstLength = field.value }
            } else if field.name.equalsIgnoringASCIICase("Transfer-Encoding") {
                encodings += 1
                if firstEncoding == nil { firstEncoding = field.value }
            }
        }
        if hosts > 1 || (hosts == 0 && version == "HTTP/1.1") {
            throw HTTPError(
                status: 400, code: "INVALID_HOST", detail: "An HTTP/1.1 request must carry exactly one Host header.",
                parameter: "Host", closesConnection: true)
        }
        if let encoding = firstEncoding {
            if lengths > 0 {
                throw .badFraming("A request must not carry both Content-Length and Transfer-Encoding.")
            }
            if version != "HTTP/1.1" {
                throw .badFraming("Transfer-Encoding is not allowed in \(version) requests.")
            }
            guard encodings == 1, encoding.trimmingASCIIWhitespace().equalsIgnoringASCIICase("chunked") else {
                throw .badFraming("Transfer-Encoding must be exactly 'chunked'.")
            }
            return .chunked
        }
        guard let first = firstLength else { return .none }
        guard lengths == 1 else {
            throw .badFraming("A request must carry at most one Content-Length header.")
        }
        let digits = first.trimmingASCIIWhitespace()
        guard !digits.isEmpty, digits.utf8.count <= 18, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let length = Int(digits) else {
            throw .badFraming("Content-Length must be a decimal number of bytes.")
        }
        if length > maxBodySize { throw .payloadTooLarge(limit: maxBodySize) }
        return length == 0 ? .none : .fixed(length)
    }
}

extension StringProtocol {
    /// Without the spaces and tabs at either end: HTTP's optional whitespace (RFC 9110 §5.6.3).
    public func trimmingASCIIWhitespace() -> String {
        let bytes = Array(utf8)
        var start = 0
        var end = bytes.count
        while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
        while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
