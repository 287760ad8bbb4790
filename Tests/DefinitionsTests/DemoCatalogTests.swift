import DemoData
import Domain
import Testing

@testable import Definitions

@Suite("The demo definition, resolved")
struct DemoCatalogTests {
    let catalog: Catalog

    init() throws {
        catalog = try DefinitionLoader.demo()
    }

    func collection(_ name: String) throws -> CollectionDefinition {
        try #require(catalog.collection(named: name))
    }

    @Test func collectionsKeepDeclaredOrderAndPrefixes() {
        #expect(catalog.collections.map(\.name) == ["products", "departments", "people", "articles", "documents", "tracks", "samples"])
        #expect(catalog.collections.map(\.kind.rawValue) == ["prd", "dep", "per", "art", "doc", "trk", "smp"])
        #expect(catalog.topLevel.map(\.name) == ["products", "departments", "people", "articles", "documents", "tracks"])
    }

    @Test func storedFieldsTakeSlotsInOrderAndComputedFieldsNone() throws {
        let people = try collection("people")
        #expect(people.fields.map(\.name) == ["givenName", "familyName", "fullName", "emailAddress", "phoneNumber", "departmentID"])
        #expect(people.fields.map(\.slot) == [0, 1, nil, 2, 3, 4])
        #expect(people.slots == [0, 1, 3, 4, 5])
        let fullName = people.fields[2]
        #expect(fullName.type == .text)
        #expect(fullName.readOnly)
        #expect(fullName.computed == ValueSpec(.template(Template(parts: [.field(0), .literal(" "), .field(1)], text: "{givenName} {familyName}"))))
        #expect(fullName.label[.deDE] == "Vollständiger Name")
    }

    @Test func previewsReadTheirTextField() throws {
        let articles = try collection("articles")
        #expect(articles.fields[2].computed == ValueSpec(.field(1), preview: 48))
        #expect(articles.fields[2].slot == nil)
        let documents = try collection("documents")
        #expect(documents.fields[2].computed == ValueSpec(.field(1), preview: 56))
        #expect(documents.row == RowDefinition(title: .field(0), subtitle: .field(2)))
    }

    @Test func peopleHaveSectionsEmbedFilterAndSearch() throws {
        let people = try collection("people")
        #expect(people.sections == SectionDefinition(name: "department", field: 5))
        #expect(people.fields[5].type == .reference(collection: "departments"))
        #expect(people.fields[5].reference == ReferenceOptions(embed: "department"))
        #expect(
            people.filters == [FilterDefinition(name: "department", field: 5, operation: .equals, description: people.filters.first?.description)])
        #expect(people.filters.first?.description?[.frFR] == "Les personnes d’un service, par son identifiant.")
        #expect(people.search == [.field(2), .field(4)])
        #expect(
            people.sorts == [
                SortDefinition(name: "familyName", field: 1), SortDefinition(name: "givenName", field: 0),
                SortDefinition(name: "emailAddress", field: 3),
            ])
        #expect(people.defaultSort == [SortKey("familyName"), SortKey("givenName")])
        #expect(people.row.image == .symbol("phone"))
        #expect(people.fields[3].rules == FieldRules(required: true, maxLength: 254))
    }

    @Test func samplesAreChildrenOfTracksWithLabeledLevels() throws {
        let samples = try collection("samples")
        let tracks = try collection("tracks")
        #expect(samples.parent == ParentDefinition(collection: "tracks", field: 0))
        #expect(samples.fields[0].reference == ReferenceOptions(link: "track", onDelete: .cascade))
        #expect(!samples.writable)
        #expect(samples.fields[3].labels == LabelSource(reference: 0, names: 1, labelKey: "channel", valueKey: "level"))
        #expect(samples.fields[3].type == .numbers(fractionDigits: 2))
        #expect(tracks.fields[1].type == .names(kind: EntityKind(prefix: "chn") ?? .product))
        #expect(tracks.fields[1].rules == FieldRules(required: true, maxLength: 50, minItems: 1, maxItems: 16))
        #expect(samples.sorts == [SortDefinition(name: "timestamp", field: 1)])
        #expect(samples.defaultSort == [SortKey("timestamp")])
        #expect(samples.search.isEmpty)
        #expect(
            samples.table?.columns == [
                .value(id: "timestamp", title: samples.fields[1].label, value: .field(1), alignment: .numeric), .forEach(field: 3),
            ])
        #expect(samples.table?.compactTitle == .field(2))
        #expect(catalog.children(of: tracks).map(\.name) == ["samples"])
    }

    @Test func productsHaveATableWithPercentColumns() throws {
        let products = try collection("products")
        let columns = try #require(products.table?.columns)
        #expect(columns.count == 5)
        #expect(columns[0] == .value(id: "name", title: products.fields[0].label, value: .field(0), alignment: .leading))
        guard case .value(let id, let title, let value, let alignment) = columns[2] else {
            Issue.record("the price column is a value column")
            return
        }
        #expect(id == "price" && value == .field(3) && alignment == .numeric)
        #expect(title[.enUS] == "Base price" && title[.jaJP] == "基本価格")
        guard case .percent(let tipID, let tipTitle, let field, let percent) = columns[3] else {
            Issue.record("the tip column is a percent column")
            return
        }
        #expect(tipID == "tip15" && field == 3 && percent == 115)
        #expect(tipTitle[.deDE] == "Mit 15 % Trinkgeld")
        #expect(columns[4] == .percent(id: "tip20", title: columns[4].percentTitle ?? tipTitle, field: 3, percent: 120))
        #expect(columns[4].percentTitle?[.enUS] == "With 20% tip")
        #expect(products.table?.compactSubtitle == .field(3))
        let priceBounds = MoneyBounds(maximum: ["USD": 100_000_000, "EUR": 100_000_000, "GBP": 100_000_000, "JPY": 100_000_000])
        #expect(products.fields[3].rules == FieldRules(required: true, minimum: 0, moneyBounds: priceBounds))
        #expect(products.fields[1].defaultValue == .text(""))
    }

    @Test func productsSortAndFilterByPrice() throws {
        let products = try collection("products")
        #expect(products.sorts == [SortDefinition(name: "name", field: 0), SortDefinition(name: "price", field: 3)])
        #expect(products.defaultSort == [SortKey("name")])
        #expect(products.filters.map(\.name) == ["minPrice", "maxPrice"])
        #expect(products.filters.map(\.operation) == [.atLeast, .atMost])
        #expect(products.filters.map(\.field) == [3, 3])
        #expect(products.search == [.field(0), .field(1)])
        #expect(products.limits == ListLimits(defaultLimit: 50, maxLimit: 200))
    }

    @Test func emptyStatesAreTheDefinitionsOrTheLocalizedDefaults() throws {
        let products = try collection("products")
        #expect(products.empty.title[.frFR] == "Aucun produit")
        #expect(products.empty.image == "shippingbox")
        #expect(products.searchEmpty == .defaultSearchEmpty)
        #expect(EmptyStateDefinition.defaultSearchEmpty.title[.deDE] == "Keine Ergebnisse für „{query}“")
        #expect(EmptyStateDefinition.defaultSearchEmpty.title[.enGB] == "No Results for “{query}”")
        #expect(EmptyStateDefinition.defaultEmpty.title[.jaJP] == "項目はありません")
        #expect(EmptyStateDefinition.defaultEmpty.image == "tray")
    }

    @Test func departmentsRowsShowAConstantSymbol() throws {
        let departments = try collection("departments")
        #expect(departments.row == RowDefinition(title: .field(0), image: .symbol("building.2")))
        #expect(catalog.references(to: departments).map(\.collection.name) == ["people"])
    }
}

extension ColumnDefinition {
    fileprivate var percentTitle: LocalizedText? {
        if case .percent(_, let title, _, _) = self { return title }
        return nil
    }
}
