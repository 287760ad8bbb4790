import HTTPServer

/// `GET /` and `GET /explorer/<file>`: the explorer, a small browser client of the /v1 API,
/// embedded in the binary. It needs no store: without one the page loads and shows the index's
/// error inline.
struct ExplorerController: Sendable {
    var assets: [ExplorerAsset] = ExplorerAsset.all

    /// The page runs only its own scripts and styles and talks only to this origin; inline
    /// SVG icons are DOM nodes, and `data:` images cover the empty favicon.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        + "base-uri 'none'; frame-ancestors 'none'; form-action 'none'"

    func register(in router: inout Router) {
        for asset in assets {
            router.get(asset.route) { request in Self.respond(asset, request) }
        }
    }

    static func respond(_ asset: ExplorerAsset, _ request: Request) -> Response {
        // `no-cache` lets the browser keep a copy but revalidate it on every load, so a new
        // build is picked up at once and an unchanged one costs a 304.
        var response: Response
        if EntityTag.noneMatchHits(request.headers["If-None-Match"], current: asset.entityTag) {
            response = .empty(status: 304)
        } else {
            response = Response(status: 200, body: asset.body)
            response.encodedBodies = asset.encodedBodies
            response.headers.set("Content-Type", asset.contentType)
        }
        response.headers.set("ETag", asset.entityTag)
        response.headers.set("Cache-Control", "no-cache")
        response.headers.set("Content-Security-Policy", contentSecurityPolicy)
        response.headers.set("X-Content-Type-Options", "nosniff")
        response.headers.set("Referrer-Policy", "no-referrer")
        return response
    }
}
