import Synchronization
import Testing

@testable import HTTPServer

@Suite("Rate limit policies and token buckets")
struct RateLimitTests {
    @Test(arguments: [
        ("100/s", 100, 1.0, 100, #""t";q=100;w=1"#),
        ("600/min", 600, 60.0, 600, #""t";q=600;w=60"#),
        ("5000/h,burst=10", 5000, 3600.0, 10, #""t";q=5000;w=3600"#),
        ("1/s,burst=1", 1, 1.0, 1, #""t";q=1;w=1"#),
    ])
    func ratesParse(text: String, requests: Int, period: Double, burst: Int, field: String) throws {
        let policy = try #require(try RateLimitPolicy.parse(text, name: "t"))
        #expect(policy.requests == requests)
        #expect(policy.period == period)
        #expect(policy.burst == burst)
        #expect(policy.policyField == field)
        #expect(try RateLimitPolicy.parse(policy.description, name: "t") == policy)
    }

    @Test func offIsNoPolicy() throws {
        #expect(try RateLimitPolicy.parse("off", name: "t") == nil)
    }

    @Test(arguments: [
        "", "100", "0/s", "-1/s", "100/day", "100/s,", "100/s,burst=0", "100/s,burst=x", "100/s,rate=2", "1e3/s", "9999999999/s",
        "100/s,burst=5,burst=6", "/s",
    ])
    func badRatesAreRefused(text: String) {
        #expect(throws: RateLimitPolicy.ParseError.self) { _ = try RateLimitPolicy.parse(text, name: "t") }
    }

    /// Steps of (seconds since start, expected decision) for 2/s with a burst of 3.
    @Test func aBucketSpendsItsBurstThenRefillsAtItsRate() {
        let policy = RateLimitPolicy(name: "t", requests: 2, period: 1, burst: 3)
        var bucket = TokenBucket(policy: policy, now: 0)
        let steps: [(Double, TokenBucket.Decision)] = [
            (0, .allowed(remaining: 2, fullIn: 1)),
            (0, .allowed(remaining: 1, fullIn: 1)),
            (0, .allowed(remaining: 0, fullIn: 2)),
            (0, .refused(retryAfter: 1)),
            (0.25, .refused(retryAfter: 1)),
            (0.5, .allowed(remaining: 0, fullIn: 2)),
            (0.5, .refused(retryAfter: 1)),
            (10, .allowed(remaining: 2, fullIn: 1)),
        ]
        for (index, (seconds, expected)) in steps.enumerated() {
            #expect(bucket.take(policy, now: UInt64(seconds * 1e9)) == expected, "step \(index)")
        }
    }

    @Test func aSlowRateAsksForALongerWait() {
        let policy = RateLimitPolicy(name: "t", requests: 6, period: 60, burst: 1)
        var bucket = TokenBucket(policy: policy, now: 0)
        #expect(bucket.take(policy, now: 0) == .allowed(remaining: 0, fullIn: 10))
        #expect(bucket.take(policy, now: 1_000_000_000) == .refused(retryAfter: 9))
    }

    @Test func aClockThatGoesBackDoesNotMintTokens() {
        let policy = RateLimitPolicy(name: "t", requests: 1, period: 1, burst: 1)
        var bucket = TokenBucket(policy: policy, now: 5_000_000_000)
        #expect(bucket.take(policy, now: 5_000_000_000) == .allowed(remaining: 0, fullIn: 1))
        #expect(bucket.take(policy, now: 1_000_000_000) == .refused(retryAfter: 1))
        #expect(bucket.take(policy, now: 5_500_000_000) == .refused(retryAfter: 1))
        #expect(bucket.take(policy, now: 6_000_000_000) == .allowed(remaining: 0, fullIn: 1))
    }

    @Test func keysAndAddressesHaveBucketsOfTheirOwn() throws {
        let clock = TestClock()
        let limiter = RateLimiter(
            address: RateLimitPolicy(name: "address", requests: 1, period: 1), key: RateLimitPolicy(name: "key", requests: 2, period: 1),
            clock: { clock.now })
        let address = try #require(IPAddress("192.0.2.1"))
        #expect(limiter.take(.address(address), try #require(limiter.addressPolicy)) == .allowed(remaining: 0, fullIn: 1))
        #expect(limiter.take(.address(address), try #require(limiter.addressPolicy)) == .refused(retryAfter: 1))
        #expect(limiter.take(.key("k1"), try #require(limiter.keyPolicy)) == .allowed(remaining: 1, fullIn: 1))
        #expect(limiter.take(.key("k2"), try #require(limiter.keyPolicy)) == .allowed(remaining: 1, fullIn: 1))
        #expect(limiter.bucketCount == 3)
    }

    @Test func fullBucketsAreForgottenWhenAShardFillsUp() throws {
        let clock = TestClock()
        let policy = RateLimitPolicy(name: "address", requests: 10, period: 1)
        let limiter = RateLimiter(address: policy, key: nil, maximumBuckets: 16 * 4, clock: { clock.now })
        for index in 0..<2_000 {
            _ = limiter.take(.address(IPAddress(ipv4: UInt32(index))), policy)
        }
        // Every bucket is spent by one token and none refilled: a full shard forgets them all.
        #expect(limiter.bucketCount <= 16 * 4)
        clock.advance(seconds: 1)
        for index in 0..<2_000 {
            _ = limiter.take(.address(IPAddress(ipv4: UInt32(index))), policy)
        }
        #expect(limiter.bucketCount <= 16 * 4)
        #expect(limiter.bucketCount > 0)
    }
}

/// A monotonic clock the test moves by hand.
final class TestClock: Sendable {
    private let nanoseconds = Atomic<UInt64>(1_000_000_000)

    var now: UInt64 { nanoseconds.load(ordering: .relaxed) }

    func advance(seconds: Double) {
        nanoseconds.add(UInt64(seconds * 1e9), ordering: .relaxed)
    }
}
