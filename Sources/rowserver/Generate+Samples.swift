import ArgumentParser
import Definitions
import Domain
import Storage

/// `generate --collections FILE`: sample items for any definition, each checked by the
/// definition's rules before it is written, all in one transaction.
extension Generate {
    /// `--count N` (every top-level collection), `--count name=N` (one collection; for a child
    /// collection, per parent item).
    static func counts(_ options: [String]) throws -> (all: Int?, named: [String: Int]) {
        var all: Int?
        var named: [String: Int] = [:]
        for option in options {
            let parts = option.split(separator: "=", maxSplits: 1).map(String.init)
            guard let count = Int(parts.last ?? ""), count >= 0, count <= 10_000_000 else {
                throw ValidationError("--count \(option): a whole number from 0 to 10,000,000, or name=N")
            }
            if parts.count == 2 { named[parts[0]] = count } else { all = count }
        }
        return (all, named)
    }

    func generateSamples(catalog: Catalog) throws {
        let (all, named) = try Self.counts(count)
        for name in named.keys where catalog.collection(named: name) == nil {
            printError(
                "--count \(name)=…: the definition has no collection \(name); it has \(catalog.collections.map(\.name).joined(separator: ", "))")
            throw ExitCode.validationFailure
        }
        let generator = SampleGenerator(catalog: catalog, seed: seed, counts: named, defaultCount: all ?? 100)
        try load(catalog) { loader, progress in
            try generator.generate { collection, item in
                // What the generator makes must pass the same rules a write does (patterns it cannot know).
                let outcome = ItemDocument.decode(
                    ItemDocument.writable(item, in: collection), in: collection, catalog: catalog, mode: .replace(item), server: true)
                if let problem = outcome.problems.first {
                    throw SampleRefused(collection: collection.name, pointer: problem.pointer, detail: problem.detail)
                }
                try loader.insert(outcome.item ?? item, into: collection.name)
                if loader.insertedCount % 4_096 == 0 { progress.update(count: loader.insertedCount, fraction: nil) }
            }
        }
    }
}

/// A sample item the definition's own rules refuse (a pattern the generator cannot satisfy).
struct SampleRefused: Error, CustomStringConvertible {
    var collection: String
    var pointer: String
    var detail: String

    var description: String {
        "a sample of \(collection) breaks \(pointer.isEmpty ? "its rules" : pointer): \(detail) "
            + "Give the field a default, or make it optional, so generate can leave it alone."
    }
}
