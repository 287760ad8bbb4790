import APIServer
import ArgumentParser

/// The `rowserver` command: `serve` (the default) runs the HTTP server.
@main
struct Rowserver: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rowserver",
        abstract: "An HTTP JSON API server of render rows for list screens.",
        discussion: """
            Every option of a subcommand can also be set by an environment variable, named in its \
            help (ROWSERVER_PORT=9000 rowserver serve). A command-line option wins over the variable.
            """,
        version: RowserverVersion.current,
        subcommands: [
            Serve.self, Check.self, OpenAPICommand.self, Routes.self, Generate.self, Import.self, ListCommand.self, KeysCommand.self,
            BackupCommand.self, RestoreCommand.self,
        ],
        defaultSubcommand: Serve.self
    )
}
