import HTTPServer

/// `GET /health`: 200 `{"status":"ok"}` when every check passes, 503 `"unavailable"` when one
/// fails, with each check's outcome, so a health checker and a person with curl see why.
struct HealthController: Sendable {
    var checks: [HealthCheck]

    func register(in router: inout Router) {
        let checks = checks
        router.get("/health") { _ in Self.respond(checks) }
    }

    static func respond(_ checks: [HealthCheck]) -> Response {
        var json = JSONWriter(capacity: 128)
        var allPassed = true
        var results: [(String, String?)] = []
        for check in checks {
            do {
                try check.probe()
                results.append((check.name, nil))
            } catch {
                allPassed = false
                results.append((check.name, "\(error)"))
            }
        }
        json.beginObject()
        json.field("status", allPassed ? "ok" : "unavailable")
        json.field("version", RowserverVersion.current)
        json.key("checks")
        json.beginArray()
        for (name, failure) in results {
            json.beginObject()
            json.field("name", name)
            json.field("status", failure == nil ? "ok" : "failed")
            if let failure { json.field("detail", failure) }
            json.endObject()
        }
        json.endArray()
        json.endObject()
        var response = Response.json(json.bytes, status: allPassed ? 200 : 503)
        response.headers.set("Cache-Control", "no-store")
        return response
    }
}
