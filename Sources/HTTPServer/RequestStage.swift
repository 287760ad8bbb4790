/// A step every request passes after its head is read and before its route runs (the
/// application's authentication, rate limits): it may annotate the request (who sent it) or
/// refuse it by throwing an error that knows its answer (`HTTPResponseError`).
///
/// The pipeline is fixed: framing and target → stages, in the order given → route → handler →
/// response stages (`ResponseStage`: request id, the application's, content coding, CORS) →
/// `Connection` → metrics and access log. A
/// CORS preflight (`OPTIONS`) runs no stage: browsers send it without credentials.
public protocol RequestStage: Sendable {
    func prepare(_ request: inout Request) throws
    /// Whether the stage still runs for a request an earlier stage refused (the rate limiter
    /// counts refused requests too). Its own refusal then replaces the earlier one.
    var runsAfterRefusal: Bool { get }
}

extension RequestStage {
    public var runsAfterRefusal: Bool { false }
}

/// Who sent a request, as an authenticating stage found it: the credential's public id (for
/// logs, never a secret) and what it grants, in the application's words.
public struct Principal: Sendable, Hashable {
    public var id: String
    public var scopes: [String]

    public init(id: String, scopes: [String]) {
        self.id = id
        self.scopes = scopes
    }
}
