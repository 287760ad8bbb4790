import ArgumentParser
import Domain
import Foundation
import Storage

/// The store a command that fills one (`import`, `generate`) writes into: never seeded with the
/// demo; a file that cannot be opened is said on standard error and the command fails.
func openCommandStore(_ path: String, catalog: Catalog) throws -> CatalogStore {
    do {
        return try CatalogStore(path: path, catalog: catalog, options: .init(seedDemoData: false))
    } catch {
        printError("cannot open \(path): \(error)")
        throw ExitCode.failure
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
