/// One token bucket's shape: `requests` per `period` seconds on average, with up to `burst`
/// at once. Parsed from `100/s`, `600/min`, `5000/h`, optionally with `,burst=N` (the burst is
/// one period's worth when not given).
public struct RateLimitPolicy: Sendable, Equatable {
    /// The policy's name in the `RateLimit-Policy` and `RateLimit` fields (`address`, `key`).
    public var name: String
    public var requests: Int
    public var period: Double
    public var burst: Int

    public struct ParseError: Error, CustomStringConvertible {
        public var description: String
    }

    public init(name: String, requests: Int, period: Double, burst: Int? = nil) {
        self.name = name
        self.requests = requests
        self.period = period
        self.burst = burst ?? requests
    }

    /// nil for `off`.
    public static func parse(_ text: String, name: String) throws(ParseError) -> RateLimitPolicy? {
        if text == "off" { return nil }
        let usage = ParseError(description: "'\(text)' is not a rate: write N/s, N/min or N/h, optionally ,burst=N (or off)")
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw usage }
        let rate = parts[0].split(separator: "/", omittingEmptySubsequences: false)
        guard rate.count == 2, rate[0].utf8.count <= 9, let requests = Int(rate[0]), requests >= 1 else { throw usage }
        let period: Double
        switch rate[1] {
        case "s": period = 1
        case "min": period = 60
        case "h": period = 3_600
        default: throw usage
        }
        var burst: Int?
        if parts.count == 2 {
            guard parts[1].hasPrefix("burst="), parts[1].utf8.count <= 15, let value = Int(parts[1].dropFirst(6)), value >= 1 else {
                throw usage
            }
            burst = value
        }
        return RateLimitPolicy(name: name, requests: requests, period: period, burst: burst)
    }

    /// Tokens added per second.
    var rate: Double { Double(requests) / period }

    /// `RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers): the quota per window, as
    /// configured; the burst above it is a tolerance, not a promise.
    var policyField: String { "\"\(name)\";q=\(requests);w=\(Int(period))" }

    /// `100/s,burst=200`, as parsed.
    public var description: String {
        let unit = period == 1 ? "s" : period == 60 ? "min" : "h"
        return "\(requests)/\(unit)" + (burst == requests ? "" : ",burst=\(burst)")
    }
}

/// A bucket of tokens refilled at the policy's rate up to its burst: a request takes one.
struct TokenBucket {
    var tokens: Double
    var stamp: UInt64

    enum Decision: Equatable {
        /// Whole tokens left, and seconds until the bucket is full again.
        case allowed(remaining: Int, fullIn: Int)
        /// Seconds until a token is there (at least 1: `Retry-After` counts whole seconds).
        case refused(retryAfter: Int)
    }

    init(policy: RateLimitPolicy, now: UInt64) {
        tokens = Double(policy.burst)
        stamp = now
    }

    mutating func refill(_ policy: RateLimitPolicy, now: UInt64) {
        if now > stamp {
            tokens = min(Double(policy.burst), tokens + Double(now - stamp) / 1e9 * policy.rate)
        }
        stamp = max(stamp, now)
    }

    mutating func take(_ policy: RateLimitPolicy, now: UInt64) -> Decision {
        refill(policy, now: now)
        guard tokens >= 1 else {
            return .refused(retryAfter: max(1, Self.wholeSeconds((1 - tokens) / policy.rate)))
        }
        tokens -= 1
        return .allowed(remaining: Int(tokens), fullIn: Self.wholeSeconds((Double(policy.burst) - tokens) / policy.rate))
    }

    /// Seconds rounded up, but not for a rounding error (0.9 / 0.1 is 9.000000000000002).
    static func wholeSeconds(_ seconds: Double) -> Int {
        Int(min((seconds - 1e-6).rounded(.up), 1e9))
    }

    /// Full now: as good as a bucket not kept at all.
    func isFull(_ policy: RateLimitPolicy, now: UInt64) -> Bool {
        var copy = self
        copy.refill(policy, now: now)
        return copy.tokens >= Double(policy.burst)
    }
}
