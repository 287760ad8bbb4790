import DemoData
import Domain
import Foundation
import HTTPTestSupport
import ServerTestSupport
import Storage
import Synchronization
import Testing

@Suite("Keyset walks under concurrent writes")
struct ListConsistencyTests {
    /// Rows present for the whole walk are seen exactly once, in order, while other rows are
    /// inserted, renamed (moving them in the order) and deleted during the walk.
    @Test(arguments: ["/v1/products?limit=20", "/v1/products?limit=20&sort=-price,name", "/v1/people?limit=9&group=department"])
    func everySurvivingRowIsSeenExactlyOnce(path: String) async throws {
        let app = try LiveStoreApplication()
        let collection = path.contains("people") ? "people" : "products"
        let before = Set(try allIDs(app.store, CatalogQuery(collection: try app.store.definition(collection), limit: 200)))
        // Writers touch only their own rows: the survivors are the rows they never touch.
        let touched = Array(before.shuffled().prefix(40))
        let survivors = before.subtracting(touched)
        let store = app.store
        let stop = Atomic<Bool>(false)
        let writer = Task {
            var index = 0
            while !stop.load(ordering: .relaxed) {
                let id = touched[index % touched.count]
                if let parsed = EntityID(parsing: id), let current = try? store.item(collection, id: parsed) {
                    if index % 3 == 0 {
                        try? await store.delete(current.item.id, from: collection, ifVersion: nil)
                    } else if collection == "products", var product = try? store.product(parsed) {
                        product.name = index % 2 == 0 ? "Aaa moved \(index)" : "Zzz moved \(index)"
                        _ = try? await store.update(product: product)
                    }
                }
                if collection == "products" {
                    let product = Product(
                        id: EntityID.generate(kind: .product), name: "Mid insert \(index)", shortDescription: "", longDescription: "",
                        price: Money(minorUnits: Int64(index), currency: "USD"))
                    _ = try? await store.insert(product: product)
                }
                index += 1
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
        let seen = try await walk(port: app.port, path)
        stop.store(true, ordering: .relaxed)
        await writer.value
        let seenSurvivors = seen.filter(survivors.contains)
        #expect(Set(seenSurvivors) == survivors, "survivors skipped: \(survivors.subtracting(seenSurvivors).count)")
        #expect(seenSurvivors.count == survivors.count, "a survivor was repeated")
    }
}
