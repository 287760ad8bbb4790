import ArgumentParser
import Foundation
import Storage

/// `rowserver import <collection> <file.jsonl>`: load JSON Lines into a collection, all or nothing.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import a JSON Lines file (one object per line) or a CSV file (a header row of field names) into a collection.",
        discussion: """
            Each line holds one item's fields as the API writes them, e.g. for products \
            {"name":"Keyboard","shortDescription":"Mechanical","longDescription":"…","price":{"minorUnits":12000,"currency":"USD"}}. \
            An "id" is optional (the server assigns one) and must be of the collection's kind. Every line is \
            validated; when any is bad, each bad line is reported with its number and nothing is imported. \
            It may run while a server serves the file: the server's next answers show the imported items.
            """
    )

    @Argument(help: "The collection's name in the definition (products, people… for the demo).")
    var collection: String

    @OptionGroup var definition: DefinitionOption

    @Argument(help: "The JSON Lines file, or a CSV file (by its .csv name, or --format csv).")
    var file: String

    @Option(help: "jsonl or csv; by default from the file's name (.csv is CSV).")
    var format: String?

    @OptionGroup var fills: FilledDatabase

    @Option(help: "Bad lines reported at most.")
    var maxErrors: Int = 20

    func validate() throws {
        guard maxErrors >= 1 else { throw ValidationError("--max-errors must be at least 1") }
        if let format, !["jsonl", "csv"].contains(format) { throw ValidationError("--format must be jsonl or csv") }
    }

    func run() throws {
        let catalog = try definition.catalog()
        guard let target = catalog.collection(named: collection) else {
            printError("unknown collection \"\(collection)\"; one of \(catalog.collections.map(\.name).joined(separator: ", "))")
            throw ExitCode.validationFailure
        }
        let store = try openCommandStore(fills.destination, catalog: catalog)
        let progress = ProgressReporter(label: "importing \(target.name)", unit: "lines")
        do {
            let importer = CatalogImporter(collection: target, catalog: catalog, reportLimit: maxErrors)
            let csv = (format ?? (file.lowercased().hasSuffix(".csv") ? "csv" : "jsonl")) == "csv"
            let count =
                csv
                ? try importer.runCSV(path: file, into: store)
                : try importer.run(path: file, into: store) { step in
                    progress.update(count: step.lines, fraction: step.fraction)
                    if step.fraction == 1 { progress.note("read \(ProgressReporter.grouped(step.lines)) lines; committing…") }
                }
            progress.finish(count: count, message: "imported \(ProgressReporter.grouped(count)) \(target.name) into \(shown(fills.destination))")
        } catch {
            progress.abandon()
            printError("\(error)")
            if case .badLines = error { printError("nothing was imported") }
            throw ExitCode.failure
        }
    }
}
