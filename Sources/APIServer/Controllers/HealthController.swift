import HTTPServer

/// `GET /health`: 200 `{"status":"ok"}` when every check passes, 503 `"unavailable"` when one
/// fails, with each check's outcome, so a health checker and a person with curl see why.
struct HealthController: Sendable {
    var checks: [HealthCheck]

    func register(in router: inout Router) {
        let checks = checks
        // The body when every check passes never changes: encode it once.
        let healthyBody = Self.body(checks.map { ($0.name, nil) })
        router.get("/health") { _ in Self.respond(checks, healthyBody: healthyBody) }
    }

    static func respond(_ checks: [HealthCheck], healthyBody: [UInt8]) -> Response {
        var failures: [(String, String?)] = []
        for check in checks {
            do {
                try check.run()
            } catch {
                failures.append((check.name, HealthCheck.answer(for: error).detail))
            }
        }
        let body: [UInt8]
        if failures.isEmpty {
            body = healthyBody
        } else {
            body = Self.body(checks.map { check in (check.name, failures.first { $0.0 == check.name }?.1) })
        }
        var response = Response.json(body, status: failures.isEmpty ? 200 : 503)
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// `results`: each check's name and, when it failed, why.
    static func body(_ results: [(String, String?)]) -> [UInt8] {
        let allPassed = results.allSatisfy { $0.1 == nil }
        var json = JSONWriter(capacity: 128)
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
        return json.bytes
    }
}
