import Domain
import HTTPServer

/// Reads a write request's body: its media type first (415), then strict JSON (400).
enum RequestBody {
    /// `application/json`, what POST takes.
    static let json = ["application/json"]
    /// What PATCH takes: the merge-patch media type (RFC 7396 §4) or plain JSON.
    static let mergePatch = ["application/merge-patch+json", "application/json"]

    /// The body as a JSON document, when `Content-Type` is one of `accepted` (case-insensitive,
    /// parameters allowed; a `charset` must be UTF-8, the only encoding JSON has, RFC 8259 §8.1).
    static func parse(_ request: Request, accepting accepted: [String]) throws(HTTPError) -> JSONValue {
        try checkContentType(request.headers["Content-Type"], accepting: accepted)
        do {
            return try JSONParser.parse(request.body)
        } catch {
            throw error.httpError
        }
    }

    static func checkContentType(_ header: String?, accepting accepted: [String]) throws(HTTPError) {
        // The usual header, exactly an accepted type: no splitting and lowercasing (and no
        // message made for an error that is not there).
        if let header, accepted.contains(header) { return }
        let expected = accepted.joined(separator: " or ")
        guard let header else {
            throw HTTPError(
                status: 415, code: "UNSUPPORTED_MEDIA_TYPE", detail: "The body needs a Content-Type: \(expected).",
                parameter: "Content-Type")
        }
        var parts = header.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        let mediaType = (parts.next() ?? "").trimmingASCIIWhitespace().lowercased()
        guard accepted.contains(mediaType) else {
            throw HTTPError(
                status: 415, code: "UNSUPPORTED_MEDIA_TYPE", detail: "Content-Type must be \(expected).", parameter: "Content-Type")
        }
        while let parameter = parts.next() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingASCIIWhitespace().lowercased() == "charset" else { continue }
            var value = pair[1].trimmingASCIIWhitespace()
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            guard value.lowercased() == "utf-8" else {
                throw HTTPError(
                    status: 415, code: "UNSUPPORTED_MEDIA_TYPE", detail: "JSON bodies must be UTF-8; charset=\(value) is not accepted.",
                    parameter: "Content-Type")
            }
        }
    }
}
