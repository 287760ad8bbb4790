import Domain
import Testing

@testable import Storage

@Suite("Stored names: read back as written, a damaged text refused")
struct StoredNamesTests {
    static let names: [[NamedEntry]] = [
        [],
        [NamedEntry(id: EntityID(parsing: "dep_06dqdpn80bdsbx94")!, name: "Left")],
        [
            NamedEntry(id: EntityID(parsing: "dep_06dqdpn80bdsbx94")!, name: "Links/Rechts \"Mitte\""),
            NamedEntry(id: EntityID(parsing: "per_06dqdpn8kqsg2h35")!, name: "東京 🍮\n"),
        ],
    ]

    @Test(arguments: names)
    func namesReadBackAsWritten(names: [NamedEntry]) throws {
        let json = CatalogColumns.namesJSON(names)
        #expect(try CatalogColumns.names(json) == names)
        // A second read of the same text is the kept one, and the same.
        #expect(try CatalogColumns.names(json) == names)
    }

    static let damaged = [#"{"id":"dep_06dqdpn80bdsbx94"}"#, #"[{"id":"not an id","name":"x"}]"#, #"[{"name":"x"}]"#, "[", #"[{"id":"dep_06dqdpn80bdsbx94","name":3}]"#]

    @Test(arguments: damaged)
    func aDamagedTextIsAnInvariantFailure(json: String) {
        #expect(throws: StoreError.self) { try CatalogColumns.names(json) }
        // Refused again, from the kept answer.
        #expect(throws: StoreError.self) { try CatalogColumns.names(json) }
    }
}
