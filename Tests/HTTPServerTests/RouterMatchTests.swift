import Testing

@testable import HTTPServer

@Suite("Router matching (pure)")
struct RouterMatchTests {
    static let router: Router = {
        var router = Router()
        let ok: @Sendable (Request) throws -> Response = { _ in Response.empty(status: 204) }
        router.get("/v1/:collection", ok)
        router.get("/v1/:collection/:id", ok)
        router.get("/v1/products/changes", ok)
        router.get("/v1/tracks/:track/samples/:id", ok)
        return router
    }()

    /// (path segments, the template that matches, the parameters it fills; nil: no route).
    static let cases: [([String], String?, [String: String])] = [
        (["v1", "products"], "/v1/:collection", ["collection": "products"]),
        (["v1", "products", "42"], "/v1/:collection/:id", ["collection": "products", "id": "42"]),
        (["v1", "products", "changes"], "/v1/products/changes", [:]),
        (["v1", "people", "changes"], "/v1/:collection/:id", ["collection": "people", "id": "changes"]),
        (["v1", "tracks", "t1", "samples", "s9"], "/v1/tracks/:track/samples/:id", ["track": "t1", "id": "s9"]),
        (["v1", "products", ""], nil, [:]),
        (["v2", "products"], nil, [:]),
        ([], nil, [:]),
    ]

    @Test(arguments: cases)
    func segmentsFillTheParametersOfTheRouteTheyMatch(segments: [String], template: String?, expected: [String: String]) {
        switch Self.router.match(.GET, segments) {
        case .found(_, let parameters, let matched, _):
            #expect(matched == template)
            #expect(parameters.count == expected.count)
            for (name, value) in expected { #expect(parameters[name] == value, "\(name)") }
            #expect(parameters["missing"] == nil)
        case .methodNotAllowed, .notFound:
            #expect(template == nil, "\(segments) should match \(template ?? "-")")
        }
    }

    @Test func aRepeatedNameKeepsOneValue() {
        var parameters = RouteParameters(["id": "1"])
        parameters.set("id", "2")
        #expect(parameters.count == 1)
        #expect(parameters["id"] == "2")
        #expect(RouteParameters(["a": "1", "b": "2"]) == RouteParameters(["a": "1", "b": "2"]))
    }

    /// A method whose route is unavailable for the parameters (a collection the server keeps) is
    /// a 405 whose `Allow` leaves it out; for other parameters it is found.
    @Test(arguments: [("notes", true), ("samples", false)])
    func anUnavailableMethodIsNotAllowedAndNotListed(collection: String, writable: Bool) {
        var router = Router()
        let ok: @Sendable (Request) throws -> Response = { _ in Response.empty(status: 204) }
        router.get("/v1/:collection", ok)
        router.add(.POST, "/v1/:collection", .sync(ok), available: { $0["collection"] != "samples" })
        let segments = ["v1", collection]
        #expect(router.allowedMethods(segments) == (writable ? ["GET", "HEAD", "POST", "OPTIONS"] : ["GET", "HEAD", "OPTIONS"]))
        switch router.match(.POST, segments) {
        case .found: #expect(writable)
        case .methodNotAllowed(let allowed, _, _):
            #expect(!writable)
            #expect(allowed == ["GET", "HEAD", "OPTIONS"])
        case .notFound: Issue.record("\(collection) should have a route")
        }
    }

    /// Literal segments are found among few siblings and among many (past the listed ones),
    /// short or long, and a copied router that gains a route leaves the original as it was.
    @Test(arguments: [3, Router.maxListedLiterals, Router.maxListedLiterals + 1, 40])
    func everyLiteralFindsItsOwnRouteAmongSiblings(count: Int) {
        let ok: @Sendable (Request) throws -> Response = { _ in Response.empty(status: 204) }
        let names = (0..<count).map { $0 % 2 == 0 ? "c\($0)" : "a-segment-longer-than-fifteen-bytes-\($0)" }
        var original = Router()
        for name in names { original.get("/v1/\(name)/items", ok) }
        var copy = original
        copy.get("/v1/added/items", ok)
        for (router, extra) in [(original, false), (copy, true)] {
            for name in names {
                guard case .found(_, _, let template, _) = router.match(.GET, ["v1", name, "items"]) else {
                    Issue.record("\(name) of \(count) has no route")
                    continue
                }
                #expect(template == "/v1/\(name)/items")
            }
            let added = router.match(.GET, ["v1", "added", "items"])
            if case .found = added { #expect(extra) } else { #expect(!extra) }
            if case .notFound = router.match(.GET, ["v1", "c", "items"]) {} else { Issue.record("a prefix of a literal matched") }
        }
    }
}
