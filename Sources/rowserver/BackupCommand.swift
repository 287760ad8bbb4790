import ArgumentParser
import Foundation
import Storage

/// `rowserver backup FILE`: a consistent copy of the store, taken while its server runs.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the SQLite store into FILE, consistent as of one moment, while the server goes on serving and writing.",
        discussion: """
            The copy holds every write acknowledged before the command began. It is checked (quick_check) and \
            renamed into place only when whole; FILE must not exist. Put it back with `rowserver restore FILE`.
            """
    )

    @Argument(help: "The file to write the copy to; must not exist.")
    var file: String

    @Option(help: "The SQLite database file to copy. (ROWSERVER_DB)")
    var db: String = Environment.string("ROWSERVER_DB") ?? "./rowserver.sqlite"

    func run() throws {
        guard !FileManager.default.fileExists(atPath: file) else {
            printError("\(file) exists; name a new file")
            throw ExitCode.failure
        }
        let started = Date()
        let summary = try orExit("cannot back up \(db): ") { try StoreBackup.backup(from: db, to: file) }
        let seconds = Date().timeIntervalSince(started)
        printError(
            "backed up \(db) into \(file): \(ProgressReporter.grouped(Int(summary.bytes))) bytes, "
                + "changes through \(summary.latestSequence), in \(String(format: "%.2f", seconds)) s")
    }
}

/// `rowserver restore FILE`: puts a backup back, in one transaction, while the server may run.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the store's contents with a backup's (from `rowserver backup`), in one transaction.",
        discussion: """
            May run while a server serves the file: it sees one commit, and its next answers are the backup's \
            contents (writes wait for the restore's transaction). The backup is checked and migrated to the \
            definition first; one that does not fit it changes nothing. Collection versions and the change feed \
            continue past every number the file issued, so no tag or feed token from before the restore matches \
            after it (clients reload). API keys stay as the file has them; keys only the backup has are added.
            """
    )

    @Argument(help: "The backup file.")
    var file: String

    @OptionGroup var definition: DefinitionOption

    @Option(help: "The SQLite database file to restore into; created when missing. (ROWSERVER_DB)")
    var db: String = Environment.string("ROWSERVER_DB") ?? "./rowserver.sqlite"

    func run() throws {
        let catalog = try definition.catalog()
        let started = Date()
        let summary = try orExit("cannot restore \(file) into \(db): ") { try StoreRestore.restore(from: file, into: db, catalog: catalog) }
        let seconds = Date().timeIntervalSince(started)
        printError(
            "restored \(file) into \(db): \(ProgressReporter.grouped(summary.items)) items, "
                + "versions continue from \(summary.sequence), in \(String(format: "%.2f", seconds)) s")
    }
}
