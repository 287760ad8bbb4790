/// A list screen's model: loads the first page of a list link, pages by following `links.next`,
/// and keeps itself current with the collection's change feed and `If-None-Match`.
///
/// Every state is published as a `RowListSnapshot` to each `snapshots()` stream. Calls run one
/// at a time, in the order they were made. A call that fails or is cancelled throws and leaves
/// the last snapshot it published, which is always one the server served or its feed implies.
///
/// A refresh reads the feed from the last token. Deletes, edits and section moves apply in
/// place by id at once (one snapshot). The feed does not say where an edited or new row falls
/// in this list's order, so when it holds an upsert the loaded window (as many pages as shown)
/// is read again and the server's order replaces the local one (a second snapshot). With no
/// change, the first page is revalidated: a 304 keeps everything. A token the server no longer
/// keeps (`CHANGES_EXPIRED`) starts a new feed and reloads the window.
public actor RowList {
    public nonisolated let client: RowClient
    /// The list's first page.
    public nonisolated let link: String
    /// The collection's change feed; nil to keep current by revalidation alone.
    public nonisolated let changesLink: String?

    public private(set) var snapshot = RowListSnapshot()
    private var firstETag: String?
    private var nextLink: String?
    /// The feed link to read next; nil before the first load, and for a list without a feed.
    private var feedLink: String?
    private var subscribers: [Int: AsyncStream<RowListSnapshot>.Continuation] = [:]
    private var nextSubscriber = 0
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// The most pages a reload or a feed read follows in one go.
    static let maxPages = 50

    public init(client: RowClient, link: String, changes: String? = nil) {
        self.client = client
        self.link = link
        self.changesLink = changes
    }

    /// A view of a collection of the index, kept current with its change feed.
    public init(client: RowClient, collection: CollectionInfo, view: ListView = .rows) throws(RowKitError) {
        guard let link = collection.link(view) else { throw .viewNotOffered(collection: collection.id, view: view) }
        self.init(client: client, link: link, changes: collection.links.changes)
    }

    /// Every snapshot from now on, starting with the current one when the list is loaded.
    public func snapshots() -> AsyncStream<RowListSnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: RowListSnapshot.self, bufferingPolicy: .bufferingNewest(1))
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        if snapshot.isLoaded { continuation.yield(snapshot) }
        return stream
    }

    /// Loads the first page (again), after taking a feed token so no change in between is missed.
    public func load() async throws(RowKitError) {
        try await serially { () async throws(RowKitError) in try await self.reload(rows: 1) }
    }

    /// Loads the next page (the first, before anything was loaded); false when there is none.
    @discardableResult
    public func loadMore() async throws(RowKitError) -> Bool {
        try await serially { () async throws(RowKitError) -> Bool in
            guard let content = self.snapshot.content else {
                try await self.reload(rows: 1)
                return true
            }
            guard let next = self.nextLink, case .modified(let page, _) = try await self.client.page(next) else { return false }
            self.nextLink = page.links.next
            self.publish(RowListSnapshot(content: content.appending(page.content), empty: self.snapshot.empty, hasMore: page.links.next != nil))
            return true
        }
    }

    /// Brings the loaded rows up to date (see the type's description).
    public func refresh() async throws(RowKitError) {
        try await serially { () async throws(RowKitError) in
            guard let content = self.snapshot.content else {
                try await self.reload(rows: 1)
                return
            }
            let shown = max(content.rowCount, 1)
            guard let feedLink = self.feedLink else {
                // No feed: revalidation alone.
                if try await self.firstPageIsCurrent() { return }
                try await self.reload(rows: shown)
                return
            }
            let fed: (changes: [Change], resume: String)
            do throws(RowKitError) {
                fed = try await self.readFeed(from: feedLink)
            } catch let error where error.problem?.code == .changesExpired || error.problem?.status == 410 {
                try await self.reload(rows: shown)
                return
            }
            self.feedLink = fed.resume
            let latest = Change.latestByID(fed.changes)
            guard !latest.isEmpty else {
                if try await self.firstPageIsCurrent() { return }
                try await self.reload(rows: shown)
                return
            }
            var placed = content
            for change in latest {
                if change.op == .delete { placed.remove(id: change.id) } else { placed.update(with: change) }
            }
            if placed != content {
                self.publish(RowListSnapshot(content: placed, empty: self.snapshot.empty, hasMore: self.snapshot.hasMore))
            }
            // Removing rows moves no other row; an upsert may have (and may be new): the server
            // says where. Until that read succeeds, the first page's old ETag makes the next
            // refresh read it again.
            if latest.allSatisfy({ $0.op == .delete }) { return }
            self.commit(try await self.readWindow(rows: shown))
        }
    }

    // MARK: - Steps

    private struct Window {
        var content: Page.Content
        var empty: EmptyState?
        var etag: String?
        var next: String?
    }

    /// A new feed token, then the first page and as many more as hold `rows` rows.
    private func reload(rows: Int) async throws(RowKitError) {
        let feed = try await startFeed()
        let window = try await readWindow(rows: rows)
        feedLink = feed
        commit(window)
    }

    /// The first page and as many following ones as hold at least `rows` rows.
    private func readWindow(rows: Int) async throws(RowKitError) -> Window {
        guard case .modified(let first, let etag) = try await client.page(link) else {
            throw .unexpectedResponse(status: 304, detail: "304 to a request without If-None-Match")
        }
        var window = Window(content: first.content, empty: first.empty, etag: etag, next: first.links.next)
        var pages = 1
        while let next = window.next, window.content.rowCount < rows, pages < Self.maxPages {
            guard case .modified(let page, _) = try await client.page(next) else { break }
            window.content = window.content.appending(page.content)
            window.next = page.links.next
            pages += 1
        }
        return window
    }

    /// Whether the first page is unchanged since it was read (a 304 to its ETag).
    private func firstPageIsCurrent() async throws(RowKitError) -> Bool {
        guard let firstETag else { return false }
        if case .notModified = try await client.page(link, ifNoneMatch: firstETag) { return true }
        return false
    }

    /// A token for "now" from the change feed, when the list has one.
    private func startFeed() async throws(RowKitError) -> String? {
        guard let changesLink else { return nil }
        return try await client.changes(changesLink).links.next
    }

    /// Every change after the token, following `more`, and the link to read on from.
    private func readFeed(from link: String) async throws(RowKitError) -> ([Change], String) {
        var changes: [Change] = []
        var link = link
        for _ in 0..<Self.maxPages {
            let feed = try await client.changes(link)
            changes += feed.changes
            link = feed.links.next
            if !feed.more { break }
        }
        return (changes, link)
    }

    private func commit(_ window: Window) {
        firstETag = window.etag
        nextLink = window.next
        publish(RowListSnapshot(content: window.content, empty: window.empty, hasMore: window.next != nil))
    }

    private func publish(_ snapshot: RowListSnapshot) {
        self.snapshot = snapshot
        for continuation in subscribers.values { continuation.yield(snapshot) }
    }

    private func unsubscribe(_ id: Int) {
        subscribers[id] = nil
    }

    /// Runs `body` after every call made before it has finished.
    private func serially<Result: Sendable>(_ body: () async throws(RowKitError) -> Result) async throws(RowKitError) -> Result {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
        defer {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
        if Task.isCancelled { throw .cancelled }
        return try await body()
    }

    deinit {
        for continuation in subscribers.values { continuation.finish() }
    }
}
