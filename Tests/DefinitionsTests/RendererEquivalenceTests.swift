import Domain
import Testing

@testable import Definitions

/// The generic renderer, driven by the demo definition, shows exactly what the hand-written
/// renderers show for every demo item in every locale; the differences the definition brings
/// (translated column titles, Markdown previews from the plain text) are stated as such.
@Suite("Generic rows equal the hand-written ones")
struct RendererEquivalenceTests {
    let catalog: Catalog
    let dataset: DemoDataset

    init() throws {
        catalog = try DefinitionLoader.demo()
        dataset = DemoData(seed: 42).dataset(
            volume: .init(products: 300, departments: 8, people: 120, articles: 60, documents: 60, tracks: 3, samples: 40))
    }

    func renderer(_ name: String) throws -> ItemRenderer {
        ItemRenderer(collection: try #require(catalog.collection(named: name)), catalog: catalog)
    }

    @Test(arguments: RenderLocale.allCases)
    func rowsOfEveryCollectionButArticlesAreEqual(locale: RenderLocale) throws {
        let context = RenderContext(locale: locale)
        let products = try renderer("products")
        for product in dataset.products {
            #expect(products.row(DemoItems.product(product, in: products.collection), in: context) == product.row(in: context))
        }
        let departments = try renderer("departments")
        for department in dataset.departments {
            #expect(departments.row(DemoItems.department(department, in: departments.collection), in: context) == department.row(in: context))
        }
        let people = try renderer("people")
        for person in dataset.people {
            #expect(people.row(DemoItems.person(person, in: people.collection), in: context) == person.row(in: context))
        }
        let documents = try renderer("documents")
        for document in dataset.documents {
            #expect(documents.row(DemoItems.document(document, in: documents.collection), in: context) == document.row(in: context))
        }
        let tracks = try renderer("tracks")
        for track in dataset.tracks {
            #expect(tracks.row(DemoItems.track(track, in: tracks.collection), in: context) == track.row(in: context))
        }
    }

    @Test(arguments: RenderLocale.allCases)
    func sampleRowsAndTableRowsAreEqual(locale: RenderLocale) throws {
        let context = RenderContext(locale: locale)
        let samples = try renderer("samples")
        let tracks = try renderer("tracks")
        for track in dataset.tracks {
            let trackItem = DemoItems.track(track, in: tracks.collection)
            let references = ReferencedItems([trackItem])
            let names = samples.forEachNames(parent: trackItem)
            let table = SampleTable(track: track)
            #expect(samples.tableColumns(names: names, in: context).dropFirst() == table.columns.dropFirst())
            for sample in dataset.samples(of: track.id) {
                let item = DemoItems.sample(sample, in: samples.collection)
                let expected = table.row(for: sample, in: context)
                #expect(samples.tableRow(item, names: names, references: references, in: context) == expected)
                let row = samples.row(item, references: references, in: context)
                #expect(row == RenderRow(id: sample.id, title: expected.compact.title, subtitle: expected.compact.subtitle, image: "waveform.path"))
            }
        }
    }

    @Test(arguments: RenderLocale.allCases)
    func productAndPeopleTableRowsAreEqual(locale: RenderLocale) throws {
        let context = RenderContext(locale: locale)
        let products = try renderer("products")
        for product in dataset.products {
            let item = DemoItems.product(product, in: products.collection)
            #expect(products.tableRow(item, references: .none, in: context) == ProductTable.row(for: product, in: context))
        }
        let people = try renderer("people")
        for person in dataset.people {
            let item = DemoItems.person(person, in: people.collection)
            #expect(people.tableRow(item, references: .none, in: context) == PeopleTable.row(for: person, in: context))
        }
    }

    /// Column ids, alignment and sortability are the same; titles are the definition's,
    /// translated (the hand-written ones were English in every locale).
    @Test func tableColumnsDifferOnlyInTranslatedTitles() throws {
        let products = try renderer("products")
        let english = products.tableColumns(in: RenderContext(locale: .enUS))
        #expect(english.map(\.id) == ProductTable.columns.map(\.id))
        #expect(english.map(\.title) == ProductTable.columns.map(\.title))
        #expect(english.map(\.alignment) == ProductTable.columns.map(\.alignment))
        // The hand-written table called the description sortable; the API never accepted it.
        #expect(english.map(\.sortable) == [true, false, true, false, false])
        let german = products.tableColumns(in: RenderContext(locale: .deDE))
        #expect(german.map(\.title) == ["Name", "Beschreibung", "Grundpreis", "Mit 15 % Trinkgeld", "Mit 20 % Trinkgeld"])
        let people = try renderer("people")
        #expect(people.tableColumns(in: RenderContext(locale: .enUS)) == PeopleTable.columns)
        #expect(people.tableColumns(in: RenderContext(locale: .frFR)).map(\.title) == ["Prénom", "Nom de famille", "Adresse e-mail"])
    }

    @Test func peopleSectionsAreHeadedByTheirDepartmentsTitle() throws {
        let people = try renderer("people")
        let departments = try renderer("departments")
        let references = ReferencedItems(dataset.departments.map { DemoItems.department($0, in: departments.collection) })
        let context = RenderContext(locale: .deDE)
        for person in dataset.people {
            let section = people.section(of: DemoItems.person(person, in: people.collection), references: references, in: context)
            let department = try #require(dataset.departments.first { $0.id == person.departmentID })
            #expect(section == ItemRenderer.SectionHeading(id: department.id.rawValue, header: department.name, item: department.id))
        }
    }

    /// Articles preview the plain text of their Markdown: the seed cut the markup itself.
    @Test func articlePreviewsAreCutFromThePlainText() throws {
        let articles = try renderer("articles")
        let context = RenderContext(locale: .enUS)
        for article in dataset.articles {
            let row = articles.row(DemoItems.article(article, in: articles.collection), in: context)
            #expect(row.title == article.headline)
            #expect(row.subtitle == truncatedPreview(MarkdownPlainText.plainText(of: article.markdown), limit: 48))
            #expect(row.subtitle?.contains("**") != true)
        }
        let item = Item(
            id: dataset.articles[0].id, in: articles.collection,
            ["headline": .text("H"), "markdown": .text("# Title\n\n**Bold** and [a link](https://x.y).")])
        #expect(articles.row(item, in: context).subtitle == "Title Bold and a link.")
    }
}
