import Domain
import HTTPServer

extension Request {
    /// The formatting context for this request, negotiated from `Accept-Language`.
    public var renderContext: RenderContext {
        RenderContext(acceptLanguage: headers["Accept-Language"])
    }
}

extension Response {
    /// Marks a response as formatted for `locale`: `Content-Language`, and `Vary` so caches
    /// keep one copy per language.
    public mutating func setLanguage(_ locale: RenderLocale) {
        headers.set("Content-Language", locale.rawValue)
        headers.add("Vary", "Accept-Language")
    }
}
