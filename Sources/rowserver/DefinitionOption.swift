import ArgumentParser
import Definitions
import Domain

/// `--collections FILE`: the definition a command works on; the embedded demo without it.
struct DefinitionOption: ParsableArguments {
    @Option(
        help: """
            A collection definition (YAML or JSON); without it, the demo collections. Checked first: a bad file is \
            refused with every mistake by line and column, and nothing else happens. (ROWSERVER_COLLECTIONS)
            """)
    var collections: String?

    /// Whether a definition file was named (option or variable), rather than the demo implied.
    var isGiven: Bool { (collections ?? Environment.string("ROWSERVER_COLLECTIONS")) != nil }

    /// The checked catalog; on a bad file, its mistakes on standard error and exit status 1.
    func catalog() throws -> Catalog {
        try orExit {
            // The variable applies when the option is not given (the option wins, as everywhere).
            guard let path = collections ?? Environment.string("ROWSERVER_COLLECTIONS") else { return try DefinitionLoader.demo() }
            return try DefinitionLoader.load(path: path)
        }
    }
}

/// `rowserver check FILE`: validates a definition and prints every mistake with its line and column.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a collection definition: every mistake with its file, line, column and code; exit 0 when it is good.")

    @Argument(help: "The definition file (YAML or JSON).")
    var file: String

    func run() throws {
        let catalog = try orExit { try DefinitionLoader.load(path: file) }
        print(
            "\(file): \(EnglishCount.of(catalog.collections.count, "collection")), good: \(catalog.collections.map(\.name).joined(separator: ", "))")
    }
}
