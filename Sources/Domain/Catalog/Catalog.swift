/// Every collection a server serves, checked and resolved: what one definition file declares.
///
/// The definition loader is the only maker of a catalog, and it refuses a definition with any
/// dangling name, so the layers above may look names up and index fields without checking again.
public final class Catalog: Sendable {
    /// In declared order (the index lists the top-level ones in this order).
    public let collections: [CollectionDefinition]
    /// The collections with no parent: those under `/v1/<name>`. Kept, not filtered per call:
    /// every detail reads it, and each filter copied every definition it kept.
    public let topLevel: [CollectionDefinition]
    private let byName: [String: Int]
    private let childrenByParent: [String: [CollectionDefinition]]

    public init(collections: [CollectionDefinition]) {
        self.collections = collections
        topLevel = collections.filter { $0.parent == nil }
        byName = Dictionary(collections.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        childrenByParent = Dictionary(grouping: collections.filter { $0.parent != nil }, by: { $0.parent?.collection ?? "" })
    }

    public func collection(named name: String) -> CollectionDefinition? {
        byName[name].map { collections[$0] }
    }

    /// The collections listed under an item of `collection` (`/v1/tracks/{id}/samples`), in declared order.
    public func children(of collection: CollectionDefinition) -> [CollectionDefinition] {
        childrenByParent[collection.name] ?? []
    }

    /// Every reference field of every collection that points to `collection`.
    public func references(to collection: CollectionDefinition) -> [(collection: CollectionDefinition, field: Int)] {
        collections.flatMap { source in
            source.references.filter { $0.target == collection.name }.map { (source, $0.index) }
        }
    }

    /// The collections whose changes can alter a page or detail of `collection`: itself, and
    /// those its rows, sections, tables and details read through references (for list ETags
    /// and the response cache's keys). In a fixed order, without repeats.
    public func dependencies(of collection: CollectionDefinition) -> [CollectionDefinition] {
        var names = [collection.name]
        for reference in collection.references where !names.contains(reference.target) {
            names.append(reference.target)
        }
        return names.compactMap(self.collection(named:))
    }
}
