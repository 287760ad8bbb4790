/// Renders an `HTTPError` as an RFC 9457 problem document.
///
/// `type` is a relative URI reference naming the problem (`/problems/invalid-limit`), so the
/// same code always has the same type; `code` repeats it in the form clients switch on.
public enum ProblemDetails {
    public static let contentType = "application/problem+json"

    public static func response(for error: HTTPError, instance: String? = nil) -> Response {
        var headers = error.headers
        headers.set("Content-Type", contentType)
        if error.closesConnection { headers.set("Connection", "close") }
        return Response(status: error.status, headers: headers, body: body(for: error, instance: instance))
    }

    public static func body(for error: HTTPError, instance: String? = nil) -> [UInt8] {
        var json = JSONWriter(capacity: 256)
        json.beginObject()
        json.field("type", "/problems/" + slug(error.code))
        json.field("title", error.title)
        json.field("status", error.status)
        json.field("detail", error.detail)
        json.field("code", error.code)
        if let parameter = error.parameter { json.field("parameter", parameter) }
        if let instance { json.field("instance", instance) }
        if !error.errors.isEmpty {
            json.key("errors")
            json.beginArray()
            for fieldError in error.errors {
                json.beginObject()
                json.field("pointer", fieldError.pointer)
                json.field("detail", fieldError.detail)
                json.endObject()
            }
            json.endArray()
        }
        json.endObject()
        return json.bytes
    }

    /// `INVALID_LIMIT` → `invalid-limit`.
    static func slug(_ code: String) -> String {
        String(code.lowercased().map { $0 == "_" ? "-" : $0 })
    }
}
