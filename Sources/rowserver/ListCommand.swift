import ArgumentParser
import Dispatch
import Foundation
import RowKit
import Synchronization

/// `rowserver list COLLECTION`: a list of a running server as an aligned table in the terminal,
/// read through RowKit the way an app reads it (the index's links, then `links.next`).
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print a list of a running server as an aligned table.",
        discussion: """
            rowserver list COLLECTION                      first page of its rows
            rowserver list COLLECTION --group NAME --all   every row, in its sections
            rowserver list COLLECTION --table --pages 2    two pages of its table
            """
    )

    @Argument(help: "The collection's id, as the index (GET /v1) names it.")
    var collection: String

    @Option(help: "The server. (ROWSERVER_URL)")
    var server: String = Environment.string("ROWSERVER_URL") ?? "http://127.0.0.1:8080"

    @Option(help: "Show the list in sections; the name must be the collection's grouping.")
    var group: String?

    @Flag(help: "Show the table view: columns and cells.")
    var table = false

    @Option(help: "How many pages to print (each follows the previous page's next link).")
    var pages: Int = 1

    @Flag(help: "Print every page.")
    var all = false

    @Option(help: "The locale the server formats values in (Accept-Language).")
    var language: String?

    @Option(help: "An API key with a read scope, for a collection whose reads need one. (ROWSERVER_KEY)")
    var key: String? = Environment.string("ROWSERVER_KEY")

    func validate() throws {
        guard pages >= 1 else { throw ValidationError("--pages must be at least 1.") }
        guard !(table && group != nil) else { throw ValidationError("--group and --table cannot be combined.") }
        guard let url = URL(string: server), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("--server must be an http:// or https:// URL.")
        }
    }

    func run() throws {
        let outcome = Outcome()
        let semaphore = DispatchSemaphore(value: 0)
        let request = ListRequest(
            collection: collection, server: server, group: group, table: table, pages: all ? Int.max : pages, language: language, key: key)
        Task {
            let result: Result<String, any Error>
            do {
                result = .success(try await request.text())
            } catch {
                result = .failure(error)
            }
            outcome.result.withLock { $0 = result }
            semaphore.signal()
        }
        semaphore.wait()
        switch outcome.result.withLock({ $0 }) {
        case .success(let text)?: print(text, terminator: "")
        case .failure(let error)?: throw Self.message(error)
        case nil: throw ValidationError("No answer.")
        }
    }

    private static func message(_ error: any Error) -> any Error {
        guard let error = error as? RowKitError else { return error }
        switch error {
        case .problem(let problem), .conflict(let problem): return ValidationError("\(problem.detail) (\(problem.code))")
        case .unknownCollection(let id, let known): return ValidationError("No collection \(id); the server has \(known.joined(separator: ", ")).")
        case .transport(let detail): return ValidationError("The server did not answer: \(detail)")
        case .viewNotOffered(let collection, let view): return ValidationError("\(collection) offer no \(view.rawValue) view.")
        default: return ValidationError("\(error)")
        }
    }
}

/// What `list` asks the server, as a value the async part can take along.
private struct ListRequest: Sendable {
    let collection: String
    let server: String
    let group: String?
    let table: Bool
    let pages: Int
    let language: String?
    let key: String?

    func text() async throws -> String {
        guard let url = URL(string: server) else { throw RowKitError.invalidLink(server) }
        let client = RowClient(baseURL: url, key: key, language: language)
        let info = try await client.index().collection(collection)
        let view: ListView = table ? .table : group != nil ? .sections : .rows
        guard let link = info.link(view) else { throw RowKitError.viewNotOffered(collection: collection, view: view) }
        if let group, let offered = URLComponents(string: link)?.queryItems?.first(where: { $0.name == "group" })?.value, offered != group {
            throw ValidationError("\(collection) are grouped by \(offered), not \(group).")
        }
        let list = RowList(client: client, link: link)
        try await list.load()
        var loaded = 1
        while loaded < pages, try await list.loadMore() { loaded += 1 }
        return await list.snapshot.text()
    }
}

/// What the async part of `list` produced, handed to the synchronous command.
private final class Outcome: Sendable {
    let result = Mutex<Result<String, any Error>?>(nil)
}
