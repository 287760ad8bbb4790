/// Everything a RowKit call can fail with; every public call throws only this.
public enum RowKitError: Error, Hashable, Sendable {
    /// The server refused the request and said why.
    case problem(Problem)
    /// A write's `If-Match` named an older version (412): someone changed the item since it was
    /// read. Read it again, then decide.
    case conflict(Problem)
    /// The server stayed unavailable (503) through every retry.
    case unavailable(Problem?)
    /// The server answered something that is not this API's (a status or body RowKit cannot read).
    case unexpectedResponse(status: Int, detail: String)
    /// The request did not reach the server or its answer did not arrive.
    case transport(String)
    /// A link the server gave is not a URL.
    case invalidLink(String)
    /// The index has no collection with this id.
    case unknownCollection(String, known: [String])
    /// The collection does not offer this view (sections or a table).
    case viewNotOffered(collection: String, view: ListView)
    /// A value could not be encoded or decoded.
    case coding(String)
    /// The task was cancelled.
    case cancelled

    /// The server's problem, for `.problem`, `.conflict` and `.unavailable`.
    public var problem: Problem? {
        switch self {
        case .problem(let problem), .conflict(let problem): problem
        case .unavailable(let problem): problem
        default: nil
        }
    }
}
