import APIServer
import Foundation
import HTTPServer
import HTTPTestSupport
import ServerTestSupport
import Storage
import Synchronization
import Testing

/// Rate limits over real sockets: token buckets per address and per key, on a clock the test
/// moves, so that no assertion depends on how fast the machine is.
@Suite("Rate limits")
struct RateLimitRouteTests {
    final class Clock: Sendable {
        let nanoseconds = Atomic<UInt64>(1_000_000_000)
        var now: UInt64 { nanoseconds.load(ordering: .relaxed) }
        func advance(seconds: Double) { nanoseconds.add(UInt64(seconds * 1e9), ordering: .relaxed) }
    }

    static func limiter(_ clock: Clock, address: Int = 3, key: Int = 2) -> RateLimiter {
        RateLimiter(
            address: RateLimitPolicy(name: "address", requests: address, period: 1),
            key: RateLimitPolicy(name: "key", requests: key, period: 1), clock: { clock.now })
    }

    @Test func anAddressOverItsLimitGets429WithRetryAfterAndTheRateLimitFields() async throws {
        let clock = Clock()
        let server = try LiveStoreApplication(rateLimiter: Self.limiter(clock))
        for remaining in [2, 1, 0] {
            let answer = try await fetch(port: server.port, "/v1/products?limit=1")
            #expect(answer.status == 200)
            #expect(answer.header("RateLimit-Policy") == #""address";q=3;w=1"#)
            #expect(answer.header("RateLimit") == #""address";r=\#(remaining);t=1"#)
        }
        let refused = try await fetch(port: server.port, "/v1/products?limit=1")
        #expect(refused.status == 429)
        #expect(refused.header("Content-Type") == "application/problem+json")
        #expect(refused.json?["code"] as? String == "RATE_LIMITED")
        #expect(refused.json?["status"] as? Int == 429)
        #expect(refused.header("Retry-After") == "1")
        #expect(refused.header("RateLimit") == #""address";r=0;t=1"#)
        #expect(refused.headerValues("RateLimit").count == 1)
        #expect(refused.header("X-Request-ID") != nil)
        // Every route counts, the operational ones too.
        #expect(try await fetch(port: server.port, "/health").status == 429)
        clock.advance(seconds: 1)
        let again = try await fetch(port: server.port, "/health")
        #expect(again.status == 200)
        #expect(again.header("RateLimit") == #""address";r=2;t=1"#)
    }

    @Test func eachAddressHasItsOwnBucket() async throws {
        let clock = Clock()
        let server = try LiveStoreApplication(rateLimiter: Self.limiter(clock, address: 1))
        #expect(try await fetch(port: server.port, "GET", "/health", source: "127.0.0.1").status == 200)
        #expect(try await fetch(port: server.port, "GET", "/health", source: "127.0.0.1").status == 429)
        #expect(try await fetch(port: server.port, "GET", "/health", source: "127.0.0.2").status == 200)
        #expect(try await fetch(port: server.port, "GET", "/health", source: "127.0.0.3").status == 200)
        #expect(try await fetch(port: server.port, "GET", "/health", source: "127.0.0.2").status == 429)
    }

    @Test func aKeyCountsAgainstItsOwnBucketNotItsAddress() async throws {
        let clock = Clock()
        let server = try LiveStoreApplication(rateLimiter: Self.limiter(clock, address: 1, key: 2))
        let keys = try server.keys
        let reader = try keys.create(name: "reader", scopes: ["read"], at: 0)
        let other = try keys.create(name: "other", scopes: ["read"], at: 0)
        #expect(try await fetch(port: server.port, "/health").status == 200)
        #expect(try await fetch(port: server.port, "/health").status == 429)
        let keyed = [("Authorization", "Bearer " + reader.secret)]
        let first = try await fetch(port: server.port, "/v1/products?limit=1", headers: keyed)
        #expect(first.status == 200)
        #expect(first.header("RateLimit-Policy") == #""key";q=2;w=1"#)
        #expect(first.header("RateLimit") == #""key";r=1;t=1"#)
        #expect(try await fetch(port: server.port, "/v1/products?limit=1", headers: keyed).status == 200)
        let refused = try await fetch(port: server.port, "/v1/products?limit=1", headers: keyed)
        #expect(refused.status == 429)
        #expect((refused.json?["detail"] as? String)?.contains("API key") == true)
        #expect(!refused.text.contains(reader.secret))
        // Another key from the same address still has its whole bucket.
        #expect(try await fetch(port: server.port, "/v1/products?limit=1", headers: [("Authorization", "Bearer " + other.secret)]).status == 200)
    }

    @Test func aBadKeyCountsAgainstItsAddressSoGuessingIsLimitedToo() async throws {
        let clock = Clock()
        let server = try LiveStoreApplication(rateLimiter: Self.limiter(clock, address: 2))
        let forged = [("Authorization", "Bearer rsk_AAAAAAAAAAAA_" + String(repeating: "B", count: 52))]
        let first = try await fetch(port: server.port, "/v1/products", headers: forged)
        #expect(first.status == 401)
        #expect(first.header("RateLimit") == #""address";r=1;t=1"#)
        #expect(try await fetch(port: server.port, "/v1/products", headers: forged).status == 401)
        let refused = try await fetch(port: server.port, "/v1/products", headers: forged)
        #expect(refused.status == 429)
        #expect(refused.json?["code"] as? String == "RATE_LIMITED")
    }

    @Test func behindATrustedProxyTheForwardedClientIsCounted() async throws {
        let clock = Clock()
        let loopback = try #require(IPAddressRange("127.0.0.0/8"))
        let server = try LiveStoreApplication(rateLimiter: Self.limiter(clock, address: 1), trustedProxies: TrustedProxies([loopback]))
        let alice = [("X-Forwarded-For", "203.0.113.1")]
        let bob = [("X-Forwarded-For", "198.51.100.7, 203.0.113.2")]
        #expect(try await fetch(port: server.port, "/health", headers: alice).status == 200)
        #expect(try await fetch(port: server.port, "/health", headers: alice).status == 429)
        #expect(try await fetch(port: server.port, "/health", headers: bob).status == 200)
        // Bob's forged left entry is not who he is: his bucket is spent.
        #expect(try await fetch(port: server.port, "/health", headers: [("X-Forwarded-For", "203.0.113.2")]).status == 429)
        // The proxy's own requests (no header) are the proxy's.
        #expect(try await fetch(port: server.port, "/health").status == 200)
    }

    @Test func withoutATrustedProxyXForwardedForChangesNothing() async throws {
        let clock = Clock()
        let server = try LiveStoreApplication(rateLimiter: Self.limiter(clock, address: 1))
        #expect(try await fetch(port: server.port, "/health", headers: [("X-Forwarded-For", "203.0.113.1")]).status == 200)
        #expect(try await fetch(port: server.port, "/health", headers: [("X-Forwarded-For", "203.0.113.99")]).status == 429)
    }

    @Test func writesAreLimitedAndARefusedWriteChangesNothing() async throws {
        let clock = Clock()
        let server = try LiveStoreApplication(rateLimiter: Self.limiter(clock, key: 1))
        let body = Array(#"{"name":"Zyzzylimit","shortDescription":"Once","price":{"minorUnits":100,"currency":"USD"}}"#.utf8)
        let headers = [("Content-Type", "application/json")]
        #expect(try await server.write("POST", "/v1/products", headers: headers, body: body).status == 201)
        let refused = try await server.write("POST", "/v1/products", headers: headers, body: body)
        #expect(refused.status == 429)
        let list = try await fetch(port: server.port, "/v1/products?q=zyzzylimit")
        #expect((list.json?["rows"] as? [Any])?.count == 1)
    }

    @Test func aPreflightIsNeverLimited() async throws {
        let clock = Clock()
        let server = try LiveStoreApplication(rateLimiter: Self.limiter(clock, address: 1))
        #expect(try await fetch(port: server.port, "/health").status == 200)
        for _ in 0..<3 {
            #expect(try await fetch(port: server.port, "OPTIONS", "/v1/products").status == 204)
        }
    }
}
