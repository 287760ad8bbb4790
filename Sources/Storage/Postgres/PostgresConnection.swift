import CLibPQ

/// One connection to PostgreSQL through libpq, with the statements it has prepared.
///
/// Every call blocks its thread until the server answers: the server's request threads call
/// directly, with no event loop to hop to and back (why libpq rather than PostgresNIO). One class
/// owns the `PGconn` and closes it once (`deinit`). Not Sendable: one thread at a time, handed
/// over by a pool's lock. A connection that failed (`isHealthy` false) is not reset in place:
/// its owner drops it and opens another, which prepares its statements anew.
/// https://www.postgresql.org/docs/current/libpq.html
final class PostgresConnection {
    let handle: OpaquePointer
    /// The name each SQL text was prepared under on this connection (`query`).
    private var preparedNames: [String: String] = [:]
    /// The rows this connection's statements inserted, updated or deleted (`SQLConnection.changedRows`).
    var changedRows = 0

    /// Connects to `url`, a libpq connection URI (`postgres://user@127.0.0.1:5432/rowserver`) or
    /// `key=value` string; throws `.unavailable` when it cannot.
    ///
    /// `connectTimeout` is in seconds (libpq counts less than 2 as 2); a `connect_timeout` in
    /// `url` wins over it. The client encoding is always UTF-8, what Swift's strings are.
    init(url: String, connectTimeout: Int = 5) throws(StoreError) {
        // Processed in order, a later keyword overriding an earlier one (and the URL's own
        // settings, expanded from `dbname`, overriding what comes before it).
        let keywords = try CStringList([.text("connect_timeout"), .text("fallback_application_name"), .text("dbname"), .text("client_encoding"), nil])
        let values = try CStringList([.text(String(connectTimeout)), .text("rowserver"), .text(url), .text("UTF8"), nil])
        let opened = keywords.withPointers { keywords in values.withPointers { values in PQconnectdbParams(keywords, values, 1) } }
        guard let opened else { throw StoreError.unavailable("PostgreSQL: libpq could not allocate a connection") }
        guard PQstatus(opened) == CONNECTION_OK else {
            let failure = PostgresFailure(connection: opened)
            PQfinish(opened)
            throw failure.storeError
        }
        handle = opened
        // libpq's default prints every NOTICE and WARNING the server sends to stderr, in between
        // the server's structured log lines; they say nothing a caller acts on.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        // The text forms PostgresText reads: hex bytea (not the escape form a server may be set
        // to), and floats with the digits to read back exactly (the default only from PostgreSQL 12).
        // A commit is acknowledged once durable, whatever the database's own default says.
        // No `plan_cache_mode = force_generic_plan`: it also gives the unnamed statement (a
        // search, `PostgresPlannedEachTime`) a generic plan, which is what a search's text must
        // not get (twice PostgreSQL's time a search page in the mix; 81548cc says by how much).
        // Should this throw, `deinit` closes the connection: `self` is whole by now.
        try executeScript("SET bytea_output = 'hex'; SET extra_float_digits = 3; SET synchronous_commit = on")
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the connection is still open (`CONNECTION_OK`): false once the server went away.
    var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Runs one statement, parsed anew each time: for statements run once (DDL, a migration).
    /// Hot paths use `query`, which parses each SQL text once per connection. Not for COPY, whose
    /// data this connection does not send or read.
    @discardableResult
    func execute(_ sql: String, _ parameters: [PostgresValue?] = []) throws(StoreError) -> PostgresResult {
        let values = try CStringList(parameters)
        return try checked(values.withPointers { PQexecParams(handle, sql, values.count, nil, $0, nil, nil, 0) })
    }

    /// Runs one statement, prepared the first time this connection sees its SQL text and reused
    /// after: the server parses it once, and each call sends only its parameters.
    @discardableResult
    func query(_ sql: String, _ parameters: [PostgresValue?] = []) throws(StoreError) -> PostgresResult {
        try query(sql, parameters, preparing: { $0 })
    }

    /// `query` of `text` as `prepare` writes it for the server: the text is looked up as given
    /// (`?` placeholders, say), and made over (numbered) only the first time.
    func query(_ text: String, _ parameters: [PostgresValue?], preparing prepare: (String) -> String) throws(StoreError) -> PostgresResult {
        let name = try preparedName(text, prepare)
        let values = try CStringList(parameters)
        return try checked(values.withPointers { PQexecPrepared(handle, name, values.count, $0, nil, nil, 0) })
    }

    /// Runs statements separated by semicolons, without parameters (libpq's simple query protocol):
    /// a schema, session settings. Their results are dropped; the first failure throws.
    func executeScript(_ sql: String) throws(StoreError) {
        _ = try script(sql)
    }

    /// Runs statements without parameters in one round trip (the simple protocol: in a
    /// read-committed transaction each takes its own snapshot); the last one's result.
    func script(_ sql: String) throws(StoreError) -> PostgresResult {
        try checked(PQexec(handle, sql))
    }

    /// Prepares `text` when it is new to this connection. Names are `rowserver_` and a counter:
    /// unique on the connection, which is all the server asks (prepared statements are per session).
    ///
    /// At most `preparedLimit` are kept: texts are few per list shape, but a shape's texts
    /// differ by their LIMIT (written in the text, `CatalogPageQuery.seekStatement`), and a
    /// client choosing every limit must not grow each backend's plan cache without end. Past
    /// the limit, every statement goes (`DEALLOCATE ALL`) and is prepared again when next run.
    private func preparedName(_ text: String, _ prepare: (String) -> String) throws(StoreError) -> String {
        if let name = preparedNames[text] { return name }
        if preparedNames.count >= Self.preparedLimit {
            try executeScript("DEALLOCATE ALL")
            preparedNames.removeAll(keepingCapacity: true)
        }
        preparedCount += 1
        let name = "rowserver_\(preparedCount)"
        // No parameter types: the server infers them from the statement, as for `execute`.
        _ = try checked(PQprepare(handle, name, prepare(text), 0, nil))
        preparedNames[text] = name
        return name
    }

    static let preparedLimit = 512

    /// How many statements this connection prepared in all (names are never reused).
    private var preparedCount = 0

    /// How many statements the connection holds prepared now (for tests).
    var preparedStatements: Int { preparedNames.count }

    /// The result when it succeeded; otherwise clears it and throws the failure it names.
    private func checked(_ result: OpaquePointer?) throws(StoreError) -> PostgresResult {
        if let result {
            let status = PQresultStatus(result)
            if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY { return PostgresResult(result) }
        }
        let failure = PostgresFailure(result: result, connection: handle)
        PQclear(result)
        throw failure.storeError
    }
}
