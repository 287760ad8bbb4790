/// Sample items for any definition (`rowserver generate --collections FILE`): values within
/// each field's rules, references to items generated before them, children under their parents.
///
/// Deterministic for a seed: the same definition, counts and seed give the same items and ids.
/// Collections come in dependency order (a collection after the ones it references), so every
/// reference names an item made earlier; a cycle of required references cannot be filled and is
/// reported before anything is made.
public struct SampleGenerator {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Collections whose required references form a cycle.
        case referenceCycle([String])

        public var description: String {
            switch self {
            case .referenceCycle(let names):
                "the required references of \(names.joined(separator: ", ")) form a cycle: no item of them can be made first"
            }
        }
    }

    public let catalog: Catalog
    public let seed: UInt64
    /// Items per top-level collection, and per parent item for a child collection.
    public var counts: [String: Int]
    public var defaultCount: Int
    public var defaultChildCount: Int

    public init(catalog: Catalog, seed: UInt64 = 1, counts: [String: Int] = [:], defaultCount: Int = 100, defaultChildCount: Int = 5) {
        self.catalog = catalog
        self.seed = seed
        self.counts = counts
        self.defaultCount = defaultCount
        self.defaultChildCount = defaultChildCount
    }

    /// The collections in an order where each comes after those it requires.
    public func order() throws(Failure) -> [CollectionDefinition] {
        var ordered: [CollectionDefinition] = []
        var placed = Set<String>()
        var remaining = catalog.collections
        while !remaining.isEmpty {
            let ready = remaining.filter { collection in
                collection.references.allSatisfy { reference in
                    reference.target == collection.name || placed.contains(reference.target)
                        || !(reference.field.rules.required || collection.parent?.field == reference.index)
                }
            }
            guard !ready.isEmpty else { throw .referenceCycle(remaining.map(\.name)) }
            for collection in ready {
                ordered.append(collection)
                placed.insert(collection.name)
            }
            remaining.removeAll { placed.contains($0.name) }
        }
        return ordered
    }

    /// Every item, in insertion order, calling `emit` for each (the caller writes it).
    public func generate(_ emit: (CollectionDefinition, Item) throws -> Void) throws {
        var made: [String: [Item]] = [:]
        var random = SeededRandom(seed: seed)
        var clock = SampleClock(seed: seed)
        for collection in try order() {
            var values = SampleValues(catalog: catalog, made: made)
            var items: [Item] = []
            let parents: [Item?] =
                if let parent = collection.parent { made[parent.collection] ?? [] } else { [nil] }
            let count = counts[collection.name] ?? (collection.parent == nil ? defaultCount : defaultChildCount)
            for parent in parents {
                for index in 0..<count {
                    let id = EntityID.generate(kind: collection.kind, at: clock.next(), using: &random)
                    let item = values.item(id: id, in: collection, parent: parent, index: index, random: &random)
                    items.append(item)
                    // An outline's next nodes may name this one as their parent: a random tree,
                    // every parent made before its children (none is its own ancestor).
                    if collection.tree != nil { values.made[collection.name, default: []].append(item) }
                    try emit(collection, item)
                }
            }
            made[collection.name] = items
        }
    }
}

/// Time stamps for sample ids: one millisecond apart, so ids sort in the order items were made.
struct SampleClock {
    private var milliseconds: Int64

    init(seed: UInt64) {
        milliseconds = 1_767_225_600_000 + Int64(seed % 1_000) * 86_400_000
    }

    mutating func next() -> Int64 {
        milliseconds += 1
        return milliseconds
    }
}
