/// A list screen's model: loads the first page of a list link, pages by following `links.next`,
/// and keeps itself current with the list's change feed (`links.changes` of its pages) and
/// `If-None-Match`.
///
/// Every state is published as a `RowListSnapshot` to each `snapshots()` stream. Calls run one
/// at a time, in the order they were made. A call that fails or is cancelled throws and leaves
/// the last snapshot it published, which is always one the server served or its feed implies.
///
/// A refresh reads the feed from the last token. The feed is bound to this list: each upsert
/// says which row it now follows, so new, edited, moved and re-sectioned rows are put in place
/// by id with no page read (a row that now falls past the loaded rows is left to the next page),
/// and rows that left the list are removed. The list is read again (as many pages as shown)
/// only when the feed cannot say: an item the rows show through a reference changed (the
/// feed's `referencesVersion`), the changes took more than one feed answer, or a row falls
/// right after the last row shown once the last row read (where the next page continues)
/// changed: it may stand on either side of that line. A token the server no longer keeps
/// (`CHANGES_EXPIRED`) starts a new feed and reloads. A list without a feed (a server from
/// before child lists had feeds) is revalidated:
/// a 304 to its first page's ETag keeps everything.
public actor RowList {
    public nonisolated let client: RowClient
    /// The list's first page.
    public nonisolated let link: String

    public private(set) var snapshot = RowListSnapshot()
    private var firstETag: String?
    private var nextLink: String?
    /// The page before the first one shown; nil when the shown rows start at the list's first.
    private var previousLink: String?
    /// The list's change feed, from its first page; nil before the first load, and for a list without one.
    private var changesLink: String?
    /// The feed link to read next.
    private var feedLink: String?
    private var referencesVersion: String?
    /// The list's counts, as the last page or feed read said (`RowListSnapshot.total`, `sectionCounts`).
    private var total: Total?
    private var sectionCounts: [String: Total] = [:]
    /// Where `nextLink` continues, relative to the shown rows.
    private var boundary: PageBoundary?
    /// The snapshot holds changes the server's order has not confirmed: read the list again.
    private var unconfirmed = false
    private var subscribers: [Int: AsyncStream<RowListSnapshot>.Continuation] = [:]
    private var nextSubscriber = 0
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// The most pages a reload or a feed read follows in one go.
    static let maxPages = 50

    public init(client: RowClient, link: String) {
        self.client = client
        self.link = link
    }

    /// A view of a collection of the index.
    public init(client: RowClient, collection: CollectionInfo, view: ListView = .rows) throws(RowKitError) {
        guard let link = collection.link(view) else { throw .viewNotOffered(collection: collection.id, view: view) }
        self.init(client: client, link: link)
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

    /// Loads the first page (again), with a feed token taken before it so no change in between is missed.
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
            if let last = page.content.lastID { self.boundary = .after(last) }
            self.takeCounts(of: page)
            self.publish(RowListSnapshot(content: content.appending(page.content), empty: self.snapshot.empty, hasMore: page.links.next != nil))
            return true
        }
    }

    /// Loads the page before the first one shown and puts its rows first; false when the rows
    /// already start at the list's first (a list opened at its first page always does).
    @discardableResult
    public func loadPrevious() async throws(RowKitError) -> Bool {
        try await serially { () async throws(RowKitError) -> Bool in
            guard let content = self.snapshot.content else {
                try await self.reload(rows: 1)
                return true
            }
            guard let previous = self.previousLink, case .modified(let page, _) = try await self.client.page(previous) else { return false }
            self.previousLink = page.links.previous
            self.takeCounts(of: page)
            self.publish(RowListSnapshot(content: page.content.appending(content), empty: self.snapshot.empty, hasMore: self.snapshot.hasMore))
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
            let fed: FeedRead
            do throws(RowKitError) {
                fed = try await self.readFeed(from: feedLink)
            } catch let error where error.problem?.code == .changesExpired || error.problem?.status == 410 {
                try await self.reload(rows: shown)
                return
            }
            self.feedLink = fed.resume
            let counted = self.takeCounts(of: fed)
            let latest = Change.latestByID(fed.changes)
            if self.unconfirmed || fed.referencesVersion != self.referencesVersion {
                try await self.reread(content, applying: latest, shown: shown, referencesVersion: fed.referencesVersion)
                return
            }
            guard !latest.isEmpty else {
                // A server that does not stamp its feed: the first page says whether anything it shows changed.
                if fed.referencesVersion == nil, !(try await self.firstPageIsCurrent()) {
                    try await self.reload(rows: shown)
                } else if counted {
                    self.publish(self.snapshot)
                }
                return
            }
            let hasMore = self.snapshot.hasMore
            let placing = content.placing(latest, hasMore: hasMore, hasPrevious: self.previousLink != nil, boundary: self.boundary)
            guard fed.answers == 1, let placed = placing else {
                try await self.reread(content, applying: latest, shown: shown, referencesVersion: fed.referencesVersion)
                return
            }
            self.boundary = placed.boundary
            if placed.content != content || counted {
                self.publish(RowListSnapshot(content: placed.content, empty: self.snapshot.empty, hasMore: hasMore))
            }
        }
    }

    // MARK: - Steps

    private struct Window {
        var content: Page.Content
        var empty: EmptyState?
        var etag: String?
        var next: String?
        var previous: String?
        var changes: String?
        var total: Total?
        var sectionCounts: [String: Total] = [:]
    }

    private struct FeedRead {
        var changes: [Change] = []
        var resume: String
        var answers = 0
        var referencesVersion: String?
        /// The last answer's counts.
        var total: Total?
        var sections: [SectionCount]?
    }

    /// A new feed token, then the first page and as many more as hold `rows` rows. The feed's
    /// link comes with the first page: the first time, the page is checked again after the token.
    private func reload(rows: Int) async throws(RowKitError) {
        if let changesLink {
            let feed = try await startFeed(changesLink)
            commit(try await readWindow(rows: rows), feed: feed)
            return
        }
        var window = try await readWindow(rows: rows)
        guard let changes = window.changes else {
            commit(window, feed: nil)
            return
        }
        let feed = try await startFeed(changes)
        if let etag = window.etag, case .notModified = try await client.page(link, ifNoneMatch: etag) {
            commit(window, feed: feed)
            return
        }
        window = try await readWindow(rows: rows)
        commit(window, feed: feed)
    }

    /// Applies what can be applied by id at once (deletes, edits, section moves: one snapshot),
    /// then reads the loaded window again and takes the server's order (a second snapshot).
    /// Until that read succeeds, the next refresh reads it again.
    private func reread(_ content: Page.Content, applying changes: [Change], shown: Int, referencesVersion: String?) async throws(RowKitError) {
        var updated = content
        for change in changes {
            if change.op == .delete { updated.remove(id: change.id) } else { updated.update(with: change) }
        }
        unconfirmed = true
        if updated != content { publish(RowListSnapshot(content: updated, empty: snapshot.empty, hasMore: snapshot.hasMore)) }
        let window = try await readWindow(rows: shown)
        self.referencesVersion = referencesVersion
        // The feed just read counted every section; the window, only those it shows.
        commit(window, feed: nil, keepingSectionCounts: true)
    }

    /// The first page and as many following ones as hold at least `rows` rows.
    private func readWindow(rows: Int) async throws(RowKitError) -> Window {
        guard case .modified(let first, let etag) = try await client.page(link) else {
            throw .unexpectedResponse(status: 304, detail: "304 to a request without If-None-Match")
        }
        var window = Window(
            content: first.content, empty: first.empty, etag: etag, next: first.links.next, previous: first.links.previous,
            changes: first.links.changes, total: first.total,
            sectionCounts: first.content.sectionCounts)
        var pages = 1
        while let next = window.next, window.content.rowCount < rows, pages < Self.maxPages {
            guard case .modified(let page, _) = try await client.page(next) else { break }
            window.content = window.content.appending(page.content)
            window.total = page.total ?? window.total
            window.sectionCounts.merge(page.content.sectionCounts) { _, newer in newer }
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

    /// A token for "now" from the list's change feed.
    private func startFeed(_ link: String) async throws(RowKitError) -> FeedRead {
        let feed = try await client.changes(link)
        return FeedRead(resume: feed.links.next, referencesVersion: feed.referencesVersion)
    }

    /// Every change after the token, following `more`, and the link to read on from.
    private func readFeed(from link: String) async throws(RowKitError) -> FeedRead {
        var read = FeedRead(resume: link)
        for _ in 0..<Self.maxPages {
            let feed = try await client.changes(read.resume)
            read.changes += feed.changes
            read.resume = feed.links.next
            read.answers += 1
            read.referencesVersion = feed.referencesVersion
            (read.total, read.sections) = (feed.total, feed.sections)
            if !feed.more { break }
        }
        return read
    }

    /// Takes a window read from the server (and, with `feed`, the token taken before it).
    private func commit(_ window: Window, feed: FeedRead?, keepingSectionCounts: Bool = false) {
        firstETag = window.etag
        nextLink = window.next
        previousLink = window.previous
        boundary = window.content.lastID.map(PageBoundary.after)
        unconfirmed = false
        if let changes = window.changes { changesLink = changes }
        total = window.total
        sectionCounts = keepingSectionCounts ? sectionCounts.merging(window.sectionCounts) { _, newer in newer } : window.sectionCounts
        if let feed {
            feedLink = feed.resume
            referencesVersion = feed.referencesVersion
        }
        publish(RowListSnapshot(content: window.content, empty: window.empty, hasMore: window.next != nil))
    }

    /// Takes a later page's counts (the same list, read later).
    private func takeCounts(of page: Page) {
        total = page.total ?? total
        sectionCounts.merge(page.content.sectionCounts) { _, newer in newer }
    }

    /// Takes a feed's counts; whether they differ from the shown ones. A feed past the count's
    /// bound names no sections: the pages' counts stay.
    private func takeCounts(of feed: FeedRead) -> Bool {
        let before = (total, sectionCounts)
        if let counted = feed.total { total = counted }
        if let sections = feed.sections, !(sections.isEmpty && feed.total?.exact == false) {
            sectionCounts = Dictionary(sections.map { ($0.id, $0.count) }) { _, newer in newer }
        }
        return before.0 != total || before.1 != sectionCounts
    }

    private func publish(_ snapshot: RowListSnapshot) {
        var snapshot = snapshot
        snapshot.hasPrevious = previousLink != nil
        snapshot.total = total
        snapshot.sectionCounts = sectionCounts
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
