import Domain

/// The demo dataset as items of the demo definition's collections (`definitions/demo.yaml`).
///
/// The generator makes typed models with curated names and texts; this maps them onto the
/// definition by collection and field name, so the definition may reorder its fields freely.
/// A catalog without one of the demo's collections simply gets none of its items.
extension DemoDataset {
    /// Every item with its collection, referenced items first (departments before people,
    /// tracks before samples).
    public func items(in catalog: Catalog) -> [(collection: CollectionDefinition, item: Item)] {
        var result: [(CollectionDefinition, Item)] = []
        func add<Model>(_ name: String, _ models: [Model], _ item: (Model, CollectionDefinition) -> Item) {
            guard let collection = catalog.collection(named: name) else { return }
            for model in models { result.append((collection, item(model, collection))) }
        }
        add("departments", departments, DemoItems.department)
        add("people", people, DemoItems.person)
        add("products", products, DemoItems.product)
        add("articles", articles, DemoItems.article)
        add("documents", documents, DemoItems.document)
        add("tracks", tracks, DemoItems.track)
        add("samples", samples, DemoItems.sample)
        return result
    }
}

/// One typed demo model as an item of its demo collection.
public enum DemoItems {
    public static func product(_ product: Product, in collection: CollectionDefinition) -> Item {
        Item(
            id: product.id, in: collection,
            [
                "name": .text(product.name), "shortDescription": .text(product.shortDescription),
                "longDescription": .text(product.longDescription), "price": .money(product.price),
            ])
    }

    public static func department(_ department: Department, in collection: CollectionDefinition) -> Item {
        Item(id: department.id, in: collection, ["name": .text(department.name)])
    }

    public static func person(_ person: Person, in collection: CollectionDefinition) -> Item {
        Item(
            id: person.id, in: collection,
            [
                "givenName": .text(person.givenName), "familyName": .text(person.familyName), "emailAddress": .text(person.emailAddress),
                "phoneNumber": .text(person.phoneNumber), "departmentID": .reference(person.departmentID),
            ])
    }

    public static func article(_ article: Article, in collection: CollectionDefinition) -> Item {
        Item(id: article.id, in: collection, ["headline": .text(article.headline), "markdown": .text(article.markdown)])
    }

    public static func document(_ document: Document, in collection: CollectionDefinition) -> Item {
        Item(id: document.id, in: collection, ["title": .text(document.title), "body": .text(document.body)])
    }

    public static func track(_ track: Track, in collection: CollectionDefinition) -> Item {
        Item(
            id: track.id, in: collection,
            ["title": .text(track.title), "channels": .names(track.channels.map { NamedEntry(id: $0.id, name: $0.name) })])
    }

    public static func sample(_ sample: AudioSample, in collection: CollectionDefinition) -> Item {
        Item(
            id: sample.id, in: collection,
            [
                "trackID": .reference(sample.trackID), "timestampMilliseconds": .integer(sample.timestampMilliseconds),
                "levels": .numbers(sample.levels),
            ])
    }
}
