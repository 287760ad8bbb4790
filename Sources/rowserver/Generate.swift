import ArgumentParser
import Definitions
import DemoData
import Domain
import Storage

/// `rowserver generate`: fill a database with the deterministic demo generator.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write generated data into the database: the demo's (e.g. --products 1000000), or samples of any definition (--collections FILE).",
        discussion: """
            Counts default to the standard demo volume, so `generate --products 1000000` makes the demo \
            dataset with a million products. Everything is written in one transaction: all of it or nothing. \
            The same seed makes the same ids, so generating twice into one database fails; use another \
            --seed or a new --db. It may run while a server serves the database: the server's next answers show the new items.
            """
    )

    @OptionGroup var fills: FilledDatabase

    @Option(help: "The generator's seed: the same seed makes the same data and ids.")
    var seed: UInt64 = 1

    @OptionGroup var definition: DefinitionOption

    @Option(
        help: """
            With --collections: items per collection (N), or for one collection (name=N; for a child collection, per \
            parent item). Default 100, and 5 per parent.
            """)
    var count: [String] = []

    @Option(help: "Products (streamed: any number fits in memory).")
    var products: Int = DemoData.Volume.standard.products

    @Option(help: "Departments.")
    var departments: Int = DemoData.Volume.standard.departments

    @Option(help: "People, spread over the departments.")
    var people: Int = DemoData.Volume.standard.people

    @Option(help: "Articles.")
    var articles: Int = DemoData.Volume.standard.articles

    @Option(help: "Documents.")
    var documents: Int = DemoData.Volume.standard.documents

    @Option(help: "Audio tracks.")
    var tracks: Int = DemoData.Volume.standard.tracks

    @Option(help: "Samples per track.")
    var samples: Int = DemoData.Volume.standard.samples

    func validate() throws {
        for (name, value) in [
            ("products", products), ("departments", departments), ("people", people), ("articles", articles),
            ("documents", documents), ("tracks", tracks), ("samples", samples),
        ] where value < 0 {
            throw ValidationError("--\(name) must not be negative")
        }
    }

    func run() throws {
        if definition.isGiven {
            return try generateSamples(catalog: try definition.catalog())
        }
        let catalog = try DefinitionLoader.demo()
        let generator = DemoData(seed: seed)
        let dataset = generator.dataset(
            volume: DemoData.Volume(
                products: 0, departments: departments, people: people, articles: articles, documents: documents, tracks: tracks,
                samples: samples))
        let small = dataset.items(in: catalog)
        // The demo generator streams products, however many: they are the demo's own collection.
        guard let productCollection = catalog.collection(named: "products") else { throw ExitCode.failure }
        let total = small.count + products
        try load(catalog) { loader, progress in
            func insert(_ item: Item, _ collection: String) throws {
                try loader.insert(item, into: collection)
                if loader.insertedCount % 4_096 == 0 {
                    progress.update(count: loader.insertedCount, fraction: Double(loader.insertedCount) / Double(max(total, 1)))
                }
            }
            for (collection, item) in small { try insert(item, collection.name) }
            for product in generator.products(count: products) {
                try insert(DemoItems.product(product, in: productCollection), productCollection.name)
            }
            progress.note("committing \(ProgressReporter.grouped(loader.insertedCount)) items…")
        }
    }

    /// Opens the database for `catalog` and runs `body` in one transaction with a progress line:
    /// all of it is written, or (on any failure, said on standard error) nothing.
    func load(_ catalog: Catalog, _ body: (CatalogBulkLoader, ProgressReporter) throws -> Void) throws {
        let store = try openCommandStore(fills.destination, catalog: catalog)
        let progress = ProgressReporter(label: "generating", unit: "items")
        do {
            let count = try store.bulkLoad { loader in
                try body(loader, progress)
                return loader.insertedCount
            }
            progress.finish(
                count: count, message: "generated \(ProgressReporter.grouped(count)) items (seed \(seed)) into \(shown(fills.destination))")
        } catch StoreError.versionMismatch {
            progress.abandon()
            printError("\(shown(fills.destination)) already holds items of seed \(seed): nothing was written; use another --seed or a new --db")
            throw ExitCode.failure
        } catch {
            progress.abandon()
            printError("generating failed, nothing was written: \(error)")
            throw ExitCode.failure
        }
    }
}
