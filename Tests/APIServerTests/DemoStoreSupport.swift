import DemoData
import Domain
import Storage

/// Writes the demo's typed models into a store made from the demo definition, for tests that
/// set up a case through the store rather than over HTTP.
extension ItemStore {
    func definition(_ name: String) throws -> CollectionDefinition {
        guard let collection = catalog.collection(named: name) else { throw StoreError.unavailable("no collection \(name)") }
        return collection
    }

    @discardableResult
    func insert(product: Product) async throws -> Versioned<Item> {
        try await insert(DemoItems.product(product, in: try definition("products")), into: "products")
    }

    @discardableResult
    func insert(department: Department) async throws -> Versioned<Item> {
        try await insert(DemoItems.department(department, in: try definition("departments")), into: "departments")
    }

    /// Samples are read-only over HTTP (the server keeps them): tests write them here.
    @discardableResult
    func insert(sample: AudioSample) async throws -> Versioned<Item> {
        try await insert(DemoItems.sample(sample, in: try definition("samples")), into: "samples")
    }

    @discardableResult
    func update(product: Product) async throws -> Versioned<Item> {
        try await update(DemoItems.product(product, in: try definition("products")), in: "products", ifVersion: nil)
    }

    /// The channels of a stored track.
    func channels(ofTrack id: EntityID) throws -> [NamedEntry] {
        try item("tracks", id: id)?.item.value(of: "channels", in: try definition("tracks")).names ?? []
    }

    /// A stored product as the demo model.
    func product(_ id: EntityID) throws -> Product? {
        let products = try definition("products")
        guard let item = try item("products", id: id)?.item, case .money(let price) = item.value(of: "price", in: products) else { return nil }
        return Product(
            id: id, name: item.value(of: "name", in: products).text ?? "",
            shortDescription: item.value(of: "shortDescription", in: products).text ?? "",
            longDescription: item.value(of: "longDescription", in: products).text ?? "", price: price)
    }
}
