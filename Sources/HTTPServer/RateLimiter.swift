/// Token buckets per API key and per client address (nginx's `limit_req`, with the IETF
/// `RateLimit` fields): a request stage that refuses a request over its limit with 429, and a
/// response stage that tells every answer how much is left.
///
/// A request that an earlier stage authenticated counts against its key's bucket (a key is
/// accountable, and many keys may share one address behind a NAT); any other request, a refused
/// one included, against its client's address (`Request.clientAddress`: an IPv4 address, an
/// IPv6 /64). A bad key is therefore no way around the address limit. A `nil` policy leaves
/// that kind of request unlimited.
///
/// Buckets live in memory, in 16 shards each behind its own lock. A shard that grows past
/// `maximumBuckets / 16` drops its full buckets (a full bucket is the same as none); if that
/// is not enough, as under a flood of spoofed-looking addresses, it forgets them all, which
/// errs on the side of letting requests through.
public final class RateLimiter: RequestStage, ResponseStage {
    private let address: Limit?
    private let key: Limit?
    private let shards: [Locked<[Bucket: TokenBucket]>]
    private let shardCapacity: Int
    private let clock: @Sendable () -> UInt64

    /// A policy with the text of its fields, made once rather than per answer.
    struct Limit {
        let policy: RateLimitPolicy
        /// `RateLimit-Policy`: `"address";q=100;w=1`
        let policyField: String
        /// The start of `RateLimit`: `"address";r=`
        let remainingPrefix: String

        init(_ policy: RateLimitPolicy) {
            self.policy = policy
            self.policyField = policy.policyField
            self.remainingPrefix = "\"\(policy.name)\";r="
        }
    }

    public var addressPolicy: RateLimitPolicy? { address?.policy }
    public var keyPolicy: RateLimitPolicy? { key?.policy }

    enum Bucket: Hashable {
        case address(IPAddress)
        case key(String)
    }

    public init(
        address: RateLimitPolicy?, key: RateLimitPolicy?, maximumBuckets: Int = 262_144,
        clock: (@Sendable () -> UInt64)? = nil
    ) {
        self.address = address.map(Limit.init)
        self.key = key.map(Limit.init)
        self.shards = (0..<16).map { _ in Locked([:]) }
        self.shardCapacity = max(1, maximumBuckets / 16)
        self.clock = clock ?? { monotonicNanoseconds() }
    }

    /// A refused request still counts: a client cannot try bad keys faster than its address may.
    public var runsAfterRefusal: Bool { true }

    public func prepare(_ request: inout Request) throws {
        let bucket: Bucket
        let limit: Limit
        if let principal = request.principal {
            guard let key else { return }
            (bucket, limit) = (.key(principal.id), key)
        } else {
            guard let address, let client = request.clientAddress else { return }
            (bucket, limit) = (.address(client.limitingPrefix), address)
        }
        switch take(bucket, limit.policy) {
        case .allowed(let remaining, let fullIn):
            request.rateLimit = RateLimitStatus(
                policyField: limit.policyField, remainingPrefix: limit.remainingPrefix, remaining: remaining, resetSeconds: fullIn)
        case .refused(let retryAfter):
            let status = RateLimitStatus(
                policyField: limit.policyField, remainingPrefix: limit.remainingPrefix, remaining: 0, resetSeconds: retryAfter)
            request.rateLimit = status
            throw HTTPError.tooManyRequests(status, subject: request.principal == nil ? "This client address" : "This API key")
        }
    }

    public func decorate(_ response: inout Response, for request: Request) {
        guard let status = request.rateLimit, !response.headers.contains("RateLimit") else { return }
        status.addFields(to: &response.headers)
    }

    func take(_ bucket: Bucket, _ policy: RateLimitPolicy) -> TokenBucket.Decision {
        let now = clock()
        let shard = shards[bucket.hashValue & 15]
        return shard.withLock { buckets in
            if let index = buckets.index(forKey: bucket) {
                return buckets.values[index].take(policy, now: now)
            }
            if buckets.count >= shardCapacity { sweep(&buckets, now: now) }
            var fresh = TokenBucket(policy: policy, now: now)
            let decision = fresh.take(policy, now: now)
            buckets[bucket] = fresh
            return decision
        }
    }

    private func sweep(_ buckets: inout [Bucket: TokenBucket], now: UInt64) {
        buckets = buckets.filter { entry in
            guard let policy = policy(for: entry.key) else { return false }
            return !entry.value.isFull(policy, now: now)
        }
        if buckets.count >= shardCapacity { buckets.removeAll(keepingCapacity: true) }
    }

    private func policy(for bucket: Bucket) -> RateLimitPolicy? {
        switch bucket {
        case .address: address?.policy
        case .key: key?.policy
        }
    }

    /// Buckets held now, over all shards (for tests and metrics).
    public var bucketCount: Int {
        shards.reduce(0) { sum, shard in sum + shard.withLock { $0.count } }
    }
}

/// What the rate limiter found for one request, for its answer's fields.
public struct RateLimitStatus: Sendable, Equatable {
    /// `"address";q=100;w=1`
    public var policyField: String
    /// `"address";r=`
    public var remainingPrefix: String
    public var remaining: Int
    /// Seconds until the quota is whole again (allowed), or until the next request may go (refused).
    public var resetSeconds: Int

    func addFields(to headers: inout HTTPHeaders) {
        headers.add("RateLimit-Policy", policyField)
        headers.add("RateLimit", remainingPrefix + String(remaining) + ";t=" + String(resetSeconds))
    }
}

extension HTTPError {
    /// 429 with `Retry-After` and the `RateLimit` fields.
    static func tooManyRequests(_ status: RateLimitStatus, subject: String) -> HTTPError {
        var headers = HTTPHeaders([("Retry-After", String(status.resetSeconds))])
        status.addFields(to: &headers)
        return HTTPError(
            status: 429, code: "RATE_LIMITED",
            detail: "\(subject) sent more requests than its limit allows; retry after \(status.resetSeconds) s.", headers: headers)
    }
}
