import ArgumentParser
import Domain
import Foundation
import Storage

/// The database `import` and `generate` write into: `--database` (PostgreSQL's URL, or a file),
/// else `--db`.
struct FilledDatabase: ParsableArguments {
    @Option(help: "The SQLite database file; created when missing. (ROWSERVER_DB)")
    var db: String = Environment.string("ROWSERVER_DB") ?? "./rowserver.sqlite"

    @Option(
        help: """
            The database: postgres://user@host:port/db for PostgreSQL (its tables made when it has none); a file path \
            is a SQLite file, as --db. (ROWSERVER_DATABASE)
            """)
    var database: String? = Environment.string("ROWSERVER_DATABASE")

    var destination: String { database ?? db }
}

/// The store a command that fills one (`import`, `generate`) writes into: a PostgreSQL database
/// for a `postgres://` URL, else a SQLite file; never seeded with the demo. One that cannot be
/// opened is said on standard error and the command fails.
func openCommandStore(_ name: String, catalog: Catalog) throws -> any BulkLoadingStore {
    try orExit("cannot open \(shown(name)): ") {
        let options = CatalogStore.Options()
        if Serve.isPostgres(name) { return try PostgresStore(url: name, catalog: catalog, options: options) }
        return try CatalogStore(path: name, catalog: catalog, options: options)
    }
}

/// What `body` returns; when it throws, `failure` and the error on standard error, and exit status 1.
func orExit<T>(_ failure: String = "", _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        printError(failure + "\(error)")
        throw ExitCode.failure
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// `database` as a command may print it: a PostgreSQL URL's password replaced by `***`.
func shown(_ database: String) -> String {
    guard Serve.isPostgres(database), let scheme = database.range(of: "://") else { return database }
    let rest = database[scheme.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" }
    guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return database }
    return String(database[..<authority.index(after: colon)]) + "***" + String(database[at...])
}
