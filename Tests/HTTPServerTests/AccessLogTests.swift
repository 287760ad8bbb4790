import Foundation
import HTTPTestSupport
import Testing

@testable import HTTPServer

@Suite("Access log lines (pure)")
struct AccessLogLineTests {
    static let timestamps: [(Int, String)] = [
        (0, "1970-01-01T00:00:00."), (951_782_400, "2000-02-29T00:00:00."), (1_795_732_162, "2026-11-26T22:29:22."),
        (4_102_444_799, "2099-12-31T23:59:59."),
    ]

    @Test(arguments: timestamps)
    func timestampsAreUTCWithZeroPaddedParts(second: Int, text: String) {
        #expect(String(decoding: AccessLog.timestampPrefix(epochSecond: second), as: UTF8.self) == text)
    }

    static let durations: [(UInt64, String)] = [
        (0, #""ms":0.000}"#), (999, #""ms":0.000}"#), (1_000, #""ms":0.001}"#), (7_654_321, #""ms":7.654}"#),
        (12_000_000_000, #""ms":12000.000}"#),
    ]

    @Test(arguments: durations)
    func durationsAreMillisecondsWithThreeDecimals(nanoseconds: UInt64, ending: String) {
        let line = String(
            decoding: AccessLog.line(Request(method: .GET, target: "/"), status: 200, bytes: 2, nanoseconds: nanoseconds), as: UTF8.self)
        #expect(line.hasSuffix(ending + "\n"))
    }

    static let targets: [(String, String)] = [
        ("/v1/products?limit=5", #""target":"/v1/products?limit=5""#),
        (#"/a"b\c"#, #""target":"/a\"b\\c""#),
        ("/x\n{\"forged\":1}", #""target":"/x\n{\"forged\":1}""#),
        ("/\u{1}", #""target":"/\u0001""#),
    ]

    @Test(arguments: targets)
    func targetsAreEscapedSoNoClientCanForgeALine(target: String, field: String) throws {
        var request = Request(method: .GET, target: target, id: "abc-1")
        request.routeTemplate = "/v1/:collection"
        let line = String(decoding: AccessLog.line(request, status: 404, bytes: 120, nanoseconds: 1_500_000), as: UTF8.self)
        #expect(line.contains(field))
        #expect(line.filter { $0 == "\n" }.count == 1 && line.hasSuffix("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(("{" + line).utf8)) as? [String: Any])
        #expect(object["target"] as? String == target)
        #expect(object["id"] as? String == "abc-1")
        #expect(object["route"] as? String == "/v1/:collection")
        #expect(object["status"] as? Int == 404)
        #expect(object["bytes"] as? Int == 120)
        #expect(object["client"] == nil)
    }

    @Test func theClientAddressIsTheOneTheLimitsSee() throws {
        var request = Request(method: .GET, target: "/", id: "abc-2")
        request.peerAddress = IPAddress("10.0.0.1")
        request.clientAddress = IPAddress("2001:db8::7")
        let line = String(decoding: AccessLog.line(request, status: 200, bytes: 2, nanoseconds: 0), as: UTF8.self)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(("{" + line).utf8)) as? [String: Any])
        #expect(object["client"] as? String == "2001:db8::7")
    }

    static let truncations: [(String, Int, String)] = [
        ("abc", 5, "abc"), ("abcdef", 3, "abc"), ("aé", 2, "a"), ("aé", 3, "aé"), ("€€", 4, "€"), ("😀x", 3, ""),
    ]

    @Test(arguments: truncations)
    func longTargetsAreCutAtAScalarBoundary(text: String, limit: Int, expected: String) {
        #expect(AccessLog.truncated(text, toBytes: limit) == expected)
    }
}

@Suite("Access log (live server)")
struct AccessLogTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString).log").path
    }

    static func lines(_ path: String) -> [[String: Any]] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test func everyAnsweredRequestIsOneJSONLineWithItsIdStatusAndBytes() async throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try TestServer(accessLog: try AccessLog(destination: .file(path)))
        let hello = try await fetch(port: server.port, "/hello", headers: [("X-Request-ID", "hello-1")])
        let missing = try await fetch(port: server.port, "/nowhere?x=%22", headers: [("X-Request-ID", "missing-1")])
        let conflict = try await fetch(port: server.port, "/conflict")
        server.server.shutdown(gracePeriod: 1)
        let lines = Self.lines(path)
        #expect(lines.count == 3)
        let byID = Dictionary(lines.compactMap { line in (line["id"] as? String).map { ($0, line) } }, uniquingKeysWith: { a, _ in a })
        let first = try #require(byID["hello-1"])
        #expect(first["status"] as? Int == 200)
        #expect(first["bytes"] as? Int == hello.body.count)
        #expect(first["route"] as? String == "/hello")
        #expect(first["method"] as? String == "GET")
        #expect(first["client"] as? String == "127.0.0.1")
        #expect((first["ms"] as? Double).map { $0 >= 0 } == true)
        #expect((first["time"] as? String)?.hasSuffix("Z") == true)
        let second = try #require(byID["missing-1"])
        #expect(second["status"] as? Int == missing.status)
        #expect(second["route"] is NSNull)
        #expect(second["target"] as? String == "/nowhere?x=%22")
        #expect(lines.contains { $0["status"] as? Int == conflict.status && $0["bytes"] as? Int == conflict.body.count })
    }

    @Test func linesReachTheFileWithinASecondWhileTheServerRuns() async throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try TestServer(accessLog: try AccessLog(destination: .file(path)))
        _ = try await fetch(port: server.port, "/hello", headers: [("X-Request-ID", "soon-1")])
        let started = Date()
        let arrived = await eventually(timeout: 1) { Self.lines(path).contains { $0["id"] as? String == "soon-1" } }
        #expect(arrived, "not written \(Date().timeIntervalSince(started)) s after its answer")
        server.server.shutdown(gracePeriod: 1)
    }

    @Test func concurrentRequestsEachLeaveOneWholeLine() async throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // A tiny buffer: request threads write it out themselves, beside the writer thread.
        let server = try TestServer(accessLog: try AccessLog(destination: .file(path), highWater: 512))
        let port = server.port
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<8 {
                group.addTask {
                    try await onThread {
                        let connection = try RawHTTPClient(port: port)
                        for number in 0..<50 {
                            _ = try connection.request("GET", "/items/\(client)-\(number)", headers: [("X-Request-ID", "c\(client)-\(number)")])
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        server.server.shutdown(gracePeriod: 1)
        let raw = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        let lines = Self.lines(path)
        #expect(raw.split(separator: "\n").count == 400, "every line parses: \(lines.count)")
        #expect(Set(lines.compactMap { $0["id"] as? String }).count == 400)
    }

    /// Each thread writes into its own buffer (more threads than buffers share them): every line
    /// of every thread arrives whole, and each thread's in the order it wrote them.
    @Test(arguments: [1 << 20, 700])
    func eachThreadsLinesArriveWholeAndInItsOrder(highWater: Int) throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try AccessLog(destination: .file(path), flushInterval: 0.01, highWater: highWater)
        let threads = AccessLog.slotCount + 4
        let done = DispatchGroup()
        for thread in 0..<threads {
            done.enter()
            Thread {
                for number in 0..<300 {
                    log.record(
                        Request(method: .GET, target: "/t/\(thread)/\(number)", id: "t\(thread)-\(number)"), status: 200, bytes: number,
                        nanoseconds: 0)
                }
                done.leave()
            }.start()
        }
        done.wait()
        log.close()
        let ids = Self.lines(path).compactMap { $0["id"] as? String }
        #expect(ids.count == threads * 300)
        for thread in 0..<threads {
            #expect(ids.filter { $0.hasPrefix("t\(thread)-") } == (0..<300).map { "t\(thread)-\($0)" }, "thread \(thread)")
        }
    }

    /// A pipe takes lines in `PIPE_BUF` pieces of whole lines (a regular file, the other tests'
    /// destination, takes each buffer in one write): every line arrives whole and in order.
    @Test func aPipeGetsEveryLineWholeAndInOrder() throws {
        let path = Self.temporaryPath()
        defer { unlink(path) }
        #expect(mkfifo(path, 0o600) == 0)
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let log = try AccessLog(destination: .file(path), flushInterval: 0.05)
        for index in 0..<100 {
            log.record(Request(method: .GET, target: "/lines/\(index)", id: "line-\(index)"), status: 200, bytes: index, nanoseconds: 0)
        }
        log.close()
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(reader, &buffer, buffer.count)
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 100)
        let ids = lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        }
        #expect(ids == (0..<100).map { "line-\($0)" })
    }

    @Test func aFileThatCannotBeOpenedIsAnErrorThatNamesIt() {
        #expect(throws: AccessLog.OpenError.self) { try AccessLog(destination: .file("/nonexistent-dir/access.log")) }
    }
}

@Suite("Credential parameters in the access log")
struct CredentialParameterTests {
    @Test(arguments: [
        ("key", true), ("KEY", true), ("token", true), ("Token", true), ("secret", true), ("apikey", true), ("api_key", true),
        ("API_KEY", true), ("access_token", true), ("Authorization", true), ("sort", false), ("since", false), ("limit", false),
        ("cursor", false), ("q", false), ("keys", false), ("tokens", false), ("apikeys", false), ("s", false), ("", false),
        ("minPrice", false), ("accessToken", false),
    ])
    func credentialNamesAreKnownInAnyCase(name: String, isCredential: Bool) {
        #expect(AccessLog.isCredentialParameter(name) == isCredential)
    }
}
