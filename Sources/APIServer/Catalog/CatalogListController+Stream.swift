import Domain
import HTTPServer
import Storage

/// A list's change feed pushed as server-sent events: `GET` on its `changes` link (or
/// `links.stream`) with `Accept: text/event-stream` streams the upserts and deletes the feed
/// reads, as they commit (`LiveLists`, `LiveListFeed`).
///
/// It starts after `Last-Event-ID` (what `EventSource` sends when it reconnects) or else
/// `since`, or else now, and then opens with the token of now as its first `id` (an event
/// with no data, which a client does not see but resumes from). The `retry` it opens with
/// is spread over a few seconds, so that the clients of a server that restarted do not all
/// come back in the same second.
extension CatalogListController {
    static func wantsEventStream(_ request: Request) -> Bool {
        guard let accept = request.headers["Accept"] else { return false }
        return accept.lowercased().contains("text/event-stream")
    }

    func stream(_ request: Request, since: String?, shape: CatalogShape, list: CatalogQuery, parentItem: Item?) throws -> Response {
        guard let live else { throw HTTPError.serviceUnavailable("This server streams no lists.") }
        let name = shape.collection.name
        let resume = request.headers["Last-Event-ID"].flatMap { $0.isEmpty ? nil : $0 } ?? since
        let after = try resume.map { token throws(HTTPError) in try ChangeToken.open(token, collection: name, signer: signer) }
        let start = try after ?? store.latestSequence()
        let context = request.renderContext
        let feed = LiveListFeed(
            key: shape.facts.changes + "\n" + context.locale.rawValue, store: store, shape: shape, list: list,
            counting: shape.parameters.counting(shape.collection.definition), context: context, parentItem: parentItem, signer: signer)
        let stream = ResponseStream(farewell: Self.farewell) { [weak live] in live?.closed() }
        var opening = Array("retry: \(Self.retryMilliseconds())\n".utf8)
        if after == nil { opening += Array("id: \(ChangeToken.seal(collection: name, after: start, signer: signer))\n".utf8) }
        stream.send(opening + [10])
        try live.subscribe(feed, after: start, stream: stream, keyID: request.principal?.id)
        var response = Response.eventStream(stream)
        response.setLanguage(context.locale)
        return response
    }

    /// 1–4 s: `EventSource` waits this long before it reconnects.
    static func retryMilliseconds() -> Int { Int.random(in: 1_000...4_000) }

    /// The event every stream ends with when the server shuts down; the client reconnects
    /// after its `retry` (to this server's successor, or another instance).
    static let farewell = Array("event: shutdown\ndata: {}\n\n".utf8)
}
