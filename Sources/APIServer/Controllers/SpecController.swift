import HTTPServer

/// `GET /openapi.yaml`: the API description this server implements, as shipped with it.
struct SpecController: Sendable {
    var spec: [UInt8]

    func register(in router: inout Router) {
        let spec = spec
        let encodedBodies = EncodedBodies()
        router.get("/openapi.yaml") { _ in
            var response = Response(status: 200, body: spec)
            response.encodedBodies = encodedBodies
            response.headers.set("Content-Type", "application/yaml; charset=utf-8")
            response.headers.set("Cache-Control", "no-cache")
            return response
        }
    }
}
