import APIServer
import ArgumentParser
import Foundation
import Storage

/// `rowserver keys create|list|revoke`: the API keys in a database file. Works while the server
/// runs: it reads keys from the file per request, so a new key works and a revoked one stops
/// at once.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Create, list and revoke API keys (Authorization: Bearer <key>).",
        discussion: """
            Every write needs a key with a write scope; reads need one where the definition says `read: key`. \
            Scopes: read, write (all collections; write also reads), read:COLLECTION, write:COLLECTION. \
            The database keeps only a hash of each secret: a lost secret cannot be shown again, make a new key.
            """,
        subcommands: [Create.self, List.self, Revoke.self])

    struct Database: ParsableArguments {
        @Option(help: "The SQLite database file the server serves. (ROWSERVER_DB)")
        var db: String = Environment.string("ROWSERVER_DB") ?? "./rowserver.sqlite"

        @Option(help: "The database the server serves: postgres://… for PostgreSQL, or a SQLite file as --db. (ROWSERVER_DATABASE)")
        var database: String? = Environment.string("ROWSERVER_DATABASE")

        func open() throws -> KeyStore {
            let name = database ?? db
            return try orExit("cannot open \(name): ") { Serve.isPostgres(name) ? try PostgresStore.keys(url: name) : try KeyStore(path: name) }
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a key; prints its secret on standard output, once (standard error says its id).")

        @Option(help: "A name to tell the key by (who or what uses it).")
        var name: String

        @Option(name: .customLong("scope"), help: "read, write, read:COLLECTION or write:COLLECTION; repeat for several.")
        var scopes: [String] = []

        @OptionGroup var definition: DefinitionOption
        @OptionGroup var database: Database

        func validate() throws {
            guard !scopes.isEmpty else { throw ValidationError("give at least one --scope (read, write, read:COLLECTION, write:COLLECTION)") }
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty, name.count <= 100 else {
                throw ValidationError("--name must be 1 to 100 characters")
            }
        }

        func run() throws {
            let catalog = try definition.catalog()
            var valid: [String] = []
            for scope in scopes {
                switch APIKeyScope.validate(scope, in: catalog) {
                case .success(let scope): if !valid.contains(scope) { valid.append(scope) }
                case .failure(let error):
                    printError(error.message)
                    throw ExitCode.validationFailure
                }
            }
            let keys = try database.open()
            let created = try keys.create(name: name, scopes: valid, at: Int64(Date().timeIntervalSince1970))
            print(created.secret)
            printError("created key \(created.key.id) (\(name)): \(valid.joined(separator: " ")); the secret above is shown only now")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the keys: id, name, scopes, created, revoked (never a secret).")

        @OptionGroup var database: Database

        func run() throws {
            let keys = try database.open().all()
            let rows =
                [["ID", "NAME", "SCOPES", "CREATED", "REVOKED"]]
                + keys.map { key in
                    [key.id, key.name, key.scopes.joined(separator: " "), Self.date(key.createdAt), key.revokedAt.map(Self.date) ?? "-"]
                }
            let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
            for row in rows {
                print(row.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }.joined(separator: "  "))
            }
        }

        static func date(_ seconds: Int64) -> String {
            Date(timeIntervalSince1970: Double(seconds)).ISO8601Format()
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key by its id: requests with it get 401 from now on.")

        @Argument(help: "The key's id (keys list shows it).")
        var id: String

        @OptionGroup var database: Database

        func run() throws {
            guard try database.open().revoke(id: id, at: Int64(Date().timeIntervalSince1970)) else {
                printError("no key \(id) that is not revoked already")
                throw ExitCode.failure
            }
            printError("revoked key \(id)")
        }
    }
}
