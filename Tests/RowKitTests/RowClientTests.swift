import Foundation
import HTTPServer
import Logging
import RowKit
import Testing

/// `RowClient` against a live server: problems by code, writes with `If-Match`, and retries.
@Suite("RowClient over a live server")
struct RowClientTests {
    struct ProblemCase: Sendable, CustomTestStringConvertible {
        let link: String
        let status: Int
        let code: Problem.Code
        var testDescription: String { "\(link) → \(status) \(code)" }
    }

    static let problemCases: [ProblemCase] = [
        ProblemCase(link: "/v1/people/per_0000000000000000", status: 404, code: .notFound),
        ProblemCase(link: "/v1/nothing", status: 404, code: .notFound),
        ProblemCase(link: "/v1/people?cursor=forged", status: 400, code: .invalidCursor),
        ProblemCase(link: "/v1/people?limit=0", status: 400, code: "INVALID_LIMIT"),
        ProblemCase(link: "/v1/people/changes?since=forged", status: 400, code: .invalidToken),
    ]

    @Test(arguments: problemCases)
    func problemsDecodeToTheirCodes(_ testCase: ProblemCase) async throws {
        let server = try RowKitTestServer()
        let error = await failure { () async throws(RowKitError) -> Void in _ = try await server.client.page(testCase.link) }
        guard case .problem(let problem)? = error else {
            Issue.record("not a problem: \(String(describing: error))")
            return
        }
        #expect(problem.status == testCase.status)
        #expect(problem.code == testCase.code)
        #expect(!problem.detail.isEmpty)
    }

    /// A page after the first links the page before it and the first page; following `previous`
    /// from the second page gives the first page's rows.
    @Test func pagesLinkThePageBeforeAndTheFirst() async throws {
        let server = try RowKitTestServer()
        guard case .modified(let first, _) = try await server.client.page("/v1/people?limit=3"),
            let next = first.links.next, case .modified(let second, _) = try await server.client.page(next),
            let previous = second.links.previous, case .modified(let back, _) = try await server.client.page(previous)
        else {
            Issue.record("no second page, or no page before it")
            return
        }
        #expect(first.links.previous == nil && first.links.first == nil)
        #expect(second.links.first == first.links.current)
        #expect(back.content == first.content)
        #expect(back.links.previous == nil)
    }

    @Test func createUpdateAndDeleteFollowTheServersLinks() async throws {
        let server = try RowKitTestServer()
        let client = server.client
        let departments = try await client.index().collection("departments")
        let created = try await client.create(in: departments.links.list, ["name": "Cartography"])
        let id = try #require(created.id)
        #expect(created.link.hasSuffix(id))
        #expect(created.etag != nil)
        let updated = try await client.update(created, patch: ["name": "Maps"])
        #expect(updated.json["name"]?.string == "Maps")
        #expect(updated.etag != created.etag)
        try await client.delete(updated)
        let error = await failure { () async throws(RowKitError) -> Void in _ = try await client.detail(created.link) }
        #expect(error?.problem?.code == .notFound)
    }

    @Test func aWriteOnAStaleVersionIsAConflict() async throws {
        let server = try RowKitTestServer()
        let client = server.client
        let row = try #require(try await client.page("/v1/departments").decodedRows.first)
        let read = try await client.detail(row.detail)
        _ = try await server.secondClient().update(try await server.secondClient().detail(row.detail), patch: ["name": "Elsewhere"])
        let error = await failure { () async throws(RowKitError) -> Void in _ = try await client.update(read, patch: ["name": "Mine"]) }
        guard case .conflict(let problem)? = error else {
            Issue.record("not a conflict: \(String(describing: error))")
            return
        }
        #expect(problem.status == 412)
        #expect(problem.code == .preconditionFailed)
        #expect(try await client.detail(row.detail).json["name"]?.string == "Elsewhere")
    }

    @Test func aBatchWritesSeveralAtOnceAtomicOrEachOnItsOwn() async throws {
        let server = try RowKitTestServer()
        let client = server.client
        let departments = try await client.index().collection("departments")
        let batch = try #require(departments.links.batch)
        let created = try await client.batch(batch, [.create(["name": "Cartography"]), .create(["name": "Surveying"])], atomic: true)
        #expect(created.map(\.status) == [201, 201])
        let first = try #require(created[0].detail)
        #expect(first.etag != nil && first.json["name"]?.string == "Cartography")
        #expect(try await client.detail(first.link).etag == first.etag)
        // A stale version fails an atomic batch as a conflict, naming the operation; nothing is written.
        let second = try #require(created[1].detail)
        _ = try await client.update(second, patch: ["name": "Geodesy"])
        let error = await failure { () async throws(RowKitError) -> Void in
            _ = try await client.batch(batch, [.update(first, patch: ["name": "Maps"]), .delete(second)], atomic: true)
        }
        guard case .conflict(let problem)? = error else {
            Issue.record("not a conflict: \(String(describing: error))")
            return
        }
        #expect(problem.errors?.first?.pointer == "/operations/1")
        #expect(try await client.detail(first.link).json["name"]?.string == "Cartography")
        // Each on its own: the patch is written, the stale delete refused.
        let each = try await client.batch(batch, [.update(first, patch: ["name": "Maps"]), .delete(second)], atomic: false)
        #expect(each.map(\.status) == [200, 412])
        #expect(each[0].detail?.json["name"]?.string == "Maps")
        #expect(each[1].problem?.code == .preconditionFailed)
    }

    @Test func validationFailuresNameTheirFields() async throws {
        let server = try RowKitTestServer()
        let departments = try await server.client.index().collection("departments")
        let error = await failure { () async throws(RowKitError) -> Void in
            _ = try await server.client.create(in: departments.links.list, ["name": 5])
        }
        guard case .problem(let problem)? = error else {
            Issue.record("not a problem: \(String(describing: error))")
            return
        }
        #expect(problem.code == .validationFailed)
        #expect(problem.errors?.contains { $0.pointer == "/name" } == true)
    }

    @Test func unavailableIsRetriedAfterRetryAfter() async throws {
        let flaky = try FlakyServer(failures: 2)
        let client = RowClient(configuration: flaky.configuration(maxAttempts: 3))
        let page = try await client.page("/v1/flaky").decodedRows
        #expect(page.map(\.id) == ["a"])
        #expect(flaky.requests == 3)
    }

    @Test func unavailableThroughEveryAttemptIsThrown() async throws {
        let flaky = try FlakyServer(failures: 10)
        let client = RowClient(configuration: flaky.configuration(maxAttempts: 2))
        let error = await failure { () async throws(RowKitError) -> Void in _ = try await client.page("/v1/flaky") }
        guard case .unavailable(let problem)? = error else {
            Issue.record("not unavailable: \(String(describing: error))")
            return
        }
        #expect(problem?.code == .serviceUnavailable)
        #expect(flaky.requests == 2)
    }
}

@Suite("RowClient retries")
struct RowClientRetryTests {
    @Test func aCreateAnswered503IsNotSentAgain() async throws {
        let flaky = try FlakyServer(failures: 10)
        let client = RowClient(configuration: flaky.configuration(maxAttempts: 4))
        let error = await failure { () async throws(RowKitError) -> Void in _ = try await client.create(in: "/v1/flaky", ["name": "Once"]) }
        guard case .unavailable? = error else {
            Issue.record("not unavailable: \(String(describing: error))")
            return
        }
        #expect(flaky.requests == 1)
    }
}

@Suite("RowList cancellation")
struct RowListCancellationTests {
    @Test func aCancelledLoadThrowsCancelledAndLeavesTheSnapshotAlone() async throws {
        let slow = try FlakyServer(failures: 0)
        let list = RowList(client: RowClient(configuration: slow.configuration(maxAttempts: 1)), link: "/v1/slow")
        let task = Task { await failure { () async throws(RowKitError) -> Void in try await list.load() } }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        // The page takes 3 s: an answer instead of `.cancelled` would mean the request ran on.
        // (No clock here: the full suite stalls the cooperative pool for seconds at a time.)
        let error = await task.value
        #expect(error == .cancelled)
        #expect(await list.snapshot == RowListSnapshot())
    }
}

/// The error `body` threw; nil when it returned.
func failure(_ body: () async throws(RowKitError) -> Void) async -> RowKitError? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}

extension Fetched where Value == Page {
    /// The rows of a rows page.
    var decodedRows: [Row] {
        get throws {
            guard case .modified(let page, _) = self, case .rows(let rows) = page.content else { throw RowKitError.coding("not a rows page") }
            return rows
        }
    }
}

/// A server that answers 503 with `Retry-After: 0` a number of times, then a page of one row
/// (`/v1/flaky`), and a page that takes 3 s (`/v1/slow`).
final class FlakyServer: Sendable {
    let server: Server
    private let count = Locked(0)

    var requests: Int { count.withLock { $0 } }

    init(failures: Int) throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 1
        var router = Router()
        let count = count
        router.get("/v1/flaky") { _ in
            let attempt = count.withLock { value -> Int in
                value += 1
                return value
            }
            guard attempt > failures else {
                throw HTTPError(status: 503, code: "SERVICE_UNAVAILABLE", detail: "Try again.", headers: HTTPHeaders([("Retry-After", "0")]))
            }
            return Response.json(Array(FlakyServer.page.utf8))
        }
        router.add(
            .POST, "/v1/flaky",
            .sync { _ in
                count.withLock { $0 += 1 }
                throw HTTPError(status: 503, code: "SERVICE_UNAVAILABLE", detail: "Try again.", headers: HTTPHeaders([("Retry-After", "0")]))
            })
        router.add(
            .GET, "/v1/slow",
            .async { _ in
                try await Task.sleep(for: .seconds(3))
                return Response.json(Array(FlakyServer.page.utf8))
            })
        var logger = Logger(label: "flaky")
        logger.logLevel = .critical
        server = try Server(configuration: configuration, router: router, logger: logger)
    }

    static let page =
        #"{"rows":[{"id":"a","title":"A","subtitle":null,"trailing":null,"image":null,"detail":"/v1/flaky/a"}],"next":null,"limit":50,"empty":null,"links":{"self":"/v1/flaky","next":null}}"#

    func configuration(maxAttempts: Int) -> RowClient.Configuration {
        var configuration = RowClient.Configuration(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!)
        configuration.maxAttempts = maxAttempts
        configuration.initialRetryDelay = .milliseconds(10)
        return configuration
    }

    deinit { server.shutdown(gracePeriod: 1) }
}
