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
    public let addressPolicy: RateLimitPolicy?
    public let keyPolicy: RateLimitPolicy?
    private let shards: [Locked<[Bucket: TokenBucket]>]
    private let shardCapacity: Int
    private let clock: @Sendable () -> UInt64
    private let addressField: String?
    private let keyField: String?

    enum Bucket: Hashable {
        case address(IPAddress)
        case key(String)
    }

    public init(
        address: RateLimitPolicy?, key: RateLimitPolicy?, maximumBuckets: Int = 262_144,
        clock: (@Sendable () -> UInt64)? = nil
    ) {
        self.addressPolicy = address
        self.keyPolicy = key
        self.shards = (0..<16).map { _ in Locked([:]) }
        self.shardCapacity = max(1, maximumBuckets / 16)
        self.clock = clock ?? { monotonicNanoseconds() }
        self.addressField = address?.policyField
        self.keyField = key?.policyField
    }

    /// A refused request still counts: a client cannot try bad keys faster than its address may.
    public var runsAfterRefusal: Bool { true }

    public func prepare(_ request: inout Request) throws {
        let bucket: Bucket
        let policy: RateLimitPolicy
        let field: String
        if let principal = request.principal {
            guard let keyPolicy, let keyField else { return }
            (bucket, policy, field) = (.key(principal.id), keyPolicy, keyField)
        } else {
            guard let addressPolicy, let addressField, let client = request.clientAddress else { return }
            (bucket, policy, field) = (.address(client.limitingPrefix), addressPolicy, addressField)
        }
        switch take(bucket, policy) {
        case .allowed(let remaining, let fullIn):
            request.rateLimit = RateLimitStatus(policyField: field, name: policy.name, remaining: remaining, resetSeconds: fullIn)
        case .refused(let retryAfter):
            let status = RateLimitStatus(policyField: field, name: policy.name, remaining: 0, resetSeconds: retryAfter)
            request.rateLimit = status
            throw HTTPError.tooManyRequests(status, subject: policy.name == "key" ? "This API key" : "This client address")
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
        case .address: addressPolicy
        case .key: keyPolicy
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
    public var name: String
    public var remaining: Int
    /// Seconds until the quota is whole again (allowed), or until the next request may go (refused).
    public var resetSeconds: Int

    func addFields(to headers: inout HTTPHeaders) {
        headers.add("RateLimit-Policy", policyField)
        headers.add("RateLimit", "\"\(name)\";r=\(remaining);t=\(resetSeconds)")
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
