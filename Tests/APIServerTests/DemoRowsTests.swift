import DemoData
import Domain
import Testing

@testable import Definitions

/// What the demo definition's rows, tables, sections and empty states show, pinned as data:
/// the facts the hand-written renderers held (checked equal to them, item by item and locale
/// by locale, before they were removed), now of the generic renderer driven by demo.yaml.
@Suite("The demo's rows, tables and sections")
struct DemoRowsTests {
    let catalog: Catalog

    init() throws {
        catalog = try DefinitionLoader.demo()
    }

    func renderer(_ name: String) throws -> ItemRenderer {
        ItemRenderer(collection: try #require(catalog.collection(named: name)), catalog: catalog)
    }

    static func id(_ kind: EntityKind, _ n: UInt64) -> EntityID {
        EntityID(kind: kind, timestampMilliseconds: 1_767_225_600_000 + n, randomBits: UInt32(n))
    }

    static let keyboard = Product(
        id: id(.product, 1), name: "Keyboard", shortDescription: "Mechanical", longDescription: "A mechanical keyboard.",
        price: Money(minorUnits: 120_00, currency: "USD"))
    static let sales = Department(id: id(.department, 1), name: "Sales")
    static let engineering = Department(id: id(.department, 2), name: "Engineering")

    static func person(_ n: UInt64, _ given: String, _ family: String, _ phone: String, _ department: Department) -> Person {
        Person(
            id: id(.person, n), givenName: given, familyName: family, emailAddress: "\(given.lowercased()).\(family.lowercased())@example.com",
            phoneNumber: phone, departmentID: department.id)
    }

    static let juan = person(3, "Juan", "Chavez", "(408) 555-4301", sales)
    static let mei = person(4, "Mei", "Chen", "(919) 555-2481", sales)
    static let bill = person(5, "Bill", "James", "(408) 555-4450", engineering)
    static let anne = person(6, "Anne", "Johnson", "(417) 555-9311", engineering)

    static let stereo = Track(
        id: id(.track, 1), title: "Stereo",
        channels: [AudioChannel(id: id(.channel, 1), name: "Left"), AudioChannel(id: id(.channel, 2), name: "Right")])

    // MARK: Rows

    @Test(
        "the seed's Keyboard maps to its row in every locale",
        arguments: [
            (RenderLocale.enUS, "$120.00"), (.enGB, "US$120.00"), (.deDE, "120,00\u{00A0}$"), (.frFR, "120,00\u{00A0}$US"), (.jaJP, "$120.00"),
        ])
    func keyboardRow(locale: RenderLocale, price: String) throws {
        let products = try renderer("products")
        let row = products.row(DemoItems.product(Self.keyboard, in: products.collection), in: RenderContext(locale: locale))
        #expect(row == RenderRow(id: Self.keyboard.id, title: "Keyboard", subtitle: "Mechanical", trailing: price, image: nil))
    }

    @Test(
        "the seed's staff map to name, phone and the phone image",
        arguments: [
            (juan, "Juan Chavez", "(408) 555-4301"), (mei, "Mei Chen", "(919) 555-2481"), (bill, "Bill James", "(408) 555-4450"),
            (anne, "Anne Johnson", "(417) 555-9311"),
        ])
    func personRow(person: Person, name: String, phone: String) throws {
        let people = try renderer("people")
        let row = people.row(DemoItems.person(person, in: people.collection), in: RenderContext(locale: .enUS))
        #expect(row == RenderRow(id: person.id, title: name, subtitle: phone, trailing: nil, image: "phone"))
    }

    @Test func departmentsAndTracksMapToTheirRows() throws {
        let context = RenderContext(locale: .enUS)
        let departments = try renderer("departments")
        #expect(
            departments.row(DemoItems.department(Self.sales, in: departments.collection), in: context)
                == RenderRow(id: Self.sales.id, title: "Sales", image: "building.2"))
        let tracks = try renderer("tracks")
        #expect(
            tracks.row(DemoItems.track(Self.stereo, in: tracks.collection), in: context)
                == RenderRow(id: Self.stereo.id, title: "Stereo", subtitle: "Left, Right", image: "waveform"))
        let silent = Track(id: Self.id(.track, 2), title: "Silence", channels: [])
        #expect(tracks.row(DemoItems.track(silent, in: tracks.collection), in: context).subtitle == nil)
    }

    static let exactly48 = String(repeating: "a", count: 48)
    static let exactly56 = String(repeating: "d", count: 56)
    /// 60 family emoji (7 scalars each): a scalar-based cut would split one.
    static let families = String(repeating: "👨‍👩‍👧‍👦", count: 60)
    static let accents = String(repeating: "e\u{301}", count: 60)
    static let kanji = String(repeating: "漢", count: 60)

    @Test(
        "a document's row previews its body: trimmed, 56 characters, grapheme-safe, nil when blank",
        arguments: [
            ("", nil), ("\r\n\u{00A0}", nil), (exactly56, exactly56), (exactly56 + "x", exactly56 + "\u{2026}"),
            (families, String(repeating: "👨‍👩‍👧‍👦", count: 56) + "\u{2026}"), (accents, String(repeating: "e\u{301}", count: 56) + "\u{2026}"),
            (kanji, String(repeating: "漢", count: 56) + "\u{2026}"),
        ] as [(String, String?)])
    func documentPreview(body: String, expected: String?) throws {
        let documents = try renderer("documents")
        let document = Document(id: Self.id(.document, 1), title: "Title", body: body)
        let row = documents.row(DemoItems.document(document, in: documents.collection), in: RenderContext(locale: .enUS))
        #expect(row == RenderRow(id: document.id, title: "Title", subtitle: expected))
    }

    @Test(
        "an article's row previews the plain text of its Markdown at 48 characters",
        arguments: [
            ("", nil), ("   \n\t ", nil), ("Short", "Short"), (exactly48 + "b", exactly48 + "\u{2026}"),
            ("# Notes\n\n**Lists** are where [apps](https://x.y) spend `time`.", "Notes Lists are where apps spend time."),
            (kanji, String(repeating: "漢", count: 48) + "\u{2026}"),
        ] as [(String, String?)])
    func articlePreview(markdown: String, expected: String?) throws {
        let articles = try renderer("articles")
        let article = Article(id: Self.id(.article, 1), headline: "Headline", markdown: markdown)
        let row = articles.row(DemoItems.article(article, in: articles.collection), in: RenderContext(locale: .enUS))
        #expect(row == RenderRow(id: article.id, title: "Headline", subtitle: expected))
    }

    // MARK: Tables

    @Test(
        "product table: base price and the seed's computed tip columns",
        arguments: [
            (RenderLocale.enUS, Int64(20_00), "$20.00", "$23.00", "$24.00"), (.enUS, 50_00, "$50.00", "$57.50", "$60.00"),
            (.enUS, 75_00, "$75.00", "$86.25", "$90.00"), (.enUS, 10, "$0.10", "$0.12", "$0.12"),
            (.deDE, 120_00, "120,00\u{00A0}$", "138,00\u{00A0}$", "144,00\u{00A0}$"),
            (.frFR, 1_000_00, "1\u{202F}000,00\u{00A0}$US", "1\u{202F}150,00\u{00A0}$US", "1\u{202F}200,00\u{00A0}$US"),
        ])
    func productTable(locale: RenderLocale, minor: Int64, base: String, tip15: String, tip20: String) throws {
        let products = try renderer("products")
        var product = Self.keyboard
        product.price = Money(minorUnits: minor, currency: "USD")
        let context = RenderContext(locale: locale)
        let columns = products.tableColumns(in: context)
        #expect(columns.map(\.id) == ["name", "shortDescription", "price", "tip15", "tip20"])
        #expect(columns.map(\.alignment) == [.leading, .leading, .numeric, .numeric, .numeric])
        #expect(columns.map(\.sortable) == [true, false, true, false, false])
        #expect(
            products.tableRow(DemoItems.product(product, in: products.collection), references: .none, in: context)
                == TableRow(
                    id: product.id, cells: ["name": "Keyboard", "shortDescription": "Mechanical", "price": base, "tip15": tip15, "tip20": tip20],
                    compact: CompactSummary(title: "Keyboard", subtitle: base)))
    }

    @Test(
        "column titles are the definition's, in the request's language",
        arguments: [
            (RenderLocale.enUS, ["Name", "Description", "Base price", "With 15% tip", "With 20% tip"]),
            (.deDE, ["Name", "Beschreibung", "Grundpreis", "Mit 15 % Trinkgeld", "Mit 20 % Trinkgeld"]),
            (.jaJP, ["名前", "説明", "基本価格", "チップ15%込み", "チップ20%込み"]),
        ])
    func productColumnTitles(locale: RenderLocale, titles: [String]) throws {
        #expect(try renderer("products").tableColumns(in: RenderContext(locale: locale)).map(\.title) == titles)
    }

    @Test func aTipTooLargeToComputeShowsTheUnavailableCell() throws {
        let products = try renderer("products")
        var product = Self.keyboard
        product.price = Money(minorUnits: .max, currency: "USD")
        let row = products.tableRow(DemoItems.product(product, in: products.collection), references: .none, in: RenderContext(locale: .enUS))
        #expect(row["tip15"] == "\u{2014}")
        #expect(row["price"] == "$92,233,720,368,547,758.07")
    }

    @Test func peopleTableShowsTheSeedsColumnsAndFullNameOverEmail() throws {
        let people = try renderer("people")
        let context = RenderContext(locale: .enUS)
        #expect(
            people.tableColumns(in: context) == [
                TableColumn(id: "givenName", title: "Given Name", sortable: true),
                TableColumn(id: "familyName", title: "Family Name", sortable: true),
                TableColumn(id: "emailAddress", title: "E-Mail Address", sortable: true),
            ])
        #expect(
            people.tableRow(DemoItems.person(Self.juan, in: people.collection), references: .none, in: context)
                == TableRow(
                    id: Self.juan.id, cells: ["givenName": "Juan", "familyName": "Chavez", "emailAddress": "juan.chavez@example.com"],
                    compact: CompactSummary(title: "Juan Chavez", subtitle: "juan.chavez@example.com")))
    }

    @Test(
        "samples table: a timestamp column plus one numeric column per channel of the track",
        arguments: [
            (RenderLocale.enUS, "Timestamp (ms)", "1,250", "0.57", "0.10", "1,250 ms"),
            (.deDE, "Zeitpunkt (ms)", "1.250", "0,57", "0,10", "1.250 ms"),
            (.frFR, "Horodatage (ms)", "1\u{202F}250", "0,57", "0,10", "1\u{202F}250 ms"),
        ])
    func samplesTable(locale: RenderLocale, title: String, time: String, left: String, right: String, compactTitle: String) throws {
        let samples = try renderer("samples")
        let tracks = try renderer("tracks")
        let track = DemoItems.track(Self.stereo, in: tracks.collection)
        let sample = AudioSample(id: Self.id(.sample, 1), trackID: Self.stereo.id, timestampMilliseconds: 1_250, levels: [0.5678, 0.1])
        let item = DemoItems.sample(sample, in: samples.collection)
        let context = RenderContext(locale: locale)
        let names = samples.forEachNames(parent: track)
        let (leftID, rightID) = (Self.stereo.channels[0].id.rawValue, Self.stereo.channels[1].id.rawValue)
        #expect(
            samples.tableColumns(names: names, in: context) == [
                TableColumn(id: "timestamp", title: title, sortable: true, alignment: .numeric),
                TableColumn(id: leftID, title: "Left", sortable: false, alignment: .numeric),
                TableColumn(id: rightID, title: "Right", sortable: false, alignment: .numeric),
            ])
        let references = ReferencedItems([track])
        #expect(
            samples.tableRow(item, names: names, references: references, in: context)
                == TableRow(
                    id: sample.id, cells: ["timestamp": time, leftID: left, rightID: right],
                    compact: CompactSummary(title: compactTitle, subtitle: "Left \(left), Right \(right)")))
        #expect(
            samples.row(item, references: references, in: context)
                == RenderRow(id: sample.id, title: compactTitle, subtitle: "Left \(left), Right \(right)", image: "waveform.path"))
    }

    @Test("columns follow each track's channels, 0 to 8 of them; a missing level is unavailable", arguments: 0...8)
    func channelColumns(count: Int) throws {
        let samples = try renderer("samples")
        let tracks = try renderer("tracks")
        let track = Track(
            id: Self.id(.track, 9), title: "T", channels: (0..<count).map { AudioChannel(id: Self.id(.channel, UInt64(100 + $0)), name: "C\($0)") })
        let trackItem = DemoItems.track(track, in: tracks.collection)
        let names = samples.forEachNames(parent: trackItem)
        let context = RenderContext(locale: .enUS)
        let columns = samples.tableColumns(names: names, in: context)
        #expect(columns.dropFirst().map(\.id) == track.channels.map(\.id.rawValue))
        let sample = AudioSample(
            id: Self.id(.sample, 2), trackID: track.id, timestampMilliseconds: 0, levels: Array(repeating: 0.25, count: max(0, count - 1)))
        let item = DemoItems.sample(sample, in: samples.collection)
        let row = samples.tableRow(item, names: names, references: .none, in: context)
        #expect(row.cells.map(\.column) == columns.map(\.id))
        // The compact line, made from the cells, reads as the row's subtitle does; a sample
        // without levels has none.
        let references = ReferencedItems([trackItem])
        #expect(row.compact.subtitle == samples.row(item, references: references, in: context).subtitle)
        var silent = item
        silent.values[try #require(samples.collection.field(named: "levels")?.slot)] = .null
        #expect(samples.tableRow(silent, names: names, references: references, in: context).compact.subtitle == nil)
        if let last = track.channels.last { #expect(row[last.id.rawValue] == "\u{2014}") }
    }

    // MARK: Sections and empty states

    @Test func peopleSectionsAreTheirDepartmentsHeadedByName() throws {
        let people = try renderer("people")
        let departments = try renderer("departments")
        let references = ReferencedItems([Self.sales, Self.engineering].map { DemoItems.department($0, in: departments.collection) })
        for person in [Self.juan, Self.mei, Self.bill, Self.anne] {
            let department = person.departmentID == Self.sales.id ? Self.sales : Self.engineering
            #expect(
                people.section(of: DemoItems.person(person, in: people.collection), references: references, in: RenderContext(locale: .deDE))
                    == ItemRenderer.SectionHeading(id: department.id.rawValue, header: department.name, item: department.id))
        }
    }

    @Test(
        "each collection has its own empty state, in the request's language",
        arguments: [
            ("products", RenderLocale.enUS, EmptyState(title: "No Products", description: "Products you add appear here.", image: "shippingbox")),
            ("people", .enUS, EmptyState(title: "No People", description: "People you add appear here.", image: "person.2")),
            ("departments", .enUS, EmptyState(title: "No Departments", description: "Departments you add appear here.", image: "building.2")),
            ("articles", .enUS, EmptyState(title: "No Articles", description: "Articles you save will appear here.", image: "doc.richtext.fill")),
            ("documents", .enUS, EmptyState(title: "No Documents", description: "Documents you create appear here.", image: "doc.text")),
            ("tracks", .enUS, EmptyState(title: "No Tracks", description: "Tracks you add appear here.", image: "waveform")),
            ("samples", .enUS, EmptyState(title: "No Samples", description: "Samples recorded on this track appear here.", image: "waveform.path")),
            (
                "products", .deDE,
                EmptyState(title: "Keine Produkte", description: "Produkte, die Sie hinzufügen, erscheinen hier.", image: "shippingbox")
            ),
        ])
    func emptyStates(name: String, locale: RenderLocale, expected: EmptyState) throws {
        #expect(try #require(catalog.collection(named: name)).empty.state(in: locale) == expected)
    }

    @Test(
        "a search without results reads like the system's search variant",
        arguments: [
            ("keyboard", "No Results for \u{201C}keyboard\u{201D}"), ("  José  ", "No Results for \u{201C}José\u{201D}"),
            (String(repeating: "q", count: 100), "No Results for \u{201C}" + String(repeating: "q", count: 48) + "\u{2026}\u{201D}"),
        ])
    func searchEmptyState(query: String, title: String) throws {
        let products = try #require(catalog.collection(named: "products"))
        #expect(
            products.searchEmpty.state(in: .enUS, query: query)
                == EmptyState(title: title, description: "Check the spelling or try a new search.", image: "magnifyingglass"))
        #expect(products.searchEmpty.state(in: .deDE, query: "x").title == "Keine Ergebnisse für \u{201E}x\u{201C}")
    }

    /// Editing any field changes what a row shows, never which row it is.
    @Test func editsKeepTheRowsID() throws {
        let people = try renderer("people")
        let original = DemoItems.person(Self.juan, in: people.collection)
        let before = people.row(original, in: RenderContext(locale: .enUS))
        for slot in original.values.indices {
            var edited = original
            edited.values[slot] = slot == 4 ? .reference(Self.engineering.id) : .text("Edited \(slot)")
            let after = people.row(edited, in: RenderContext(locale: .enUS))
            #expect(after.id == before.id)
            #expect(edited != original)
        }
    }

    @Test func theSeedExamplesRenderAsTheSeedsShowThem() throws {
        let dataset = DemoData(seed: 1).dataset()
        let products = try renderer("products")
        let keyboard = try #require(dataset.products.first)
        #expect(products.row(DemoItems.product(keyboard, in: products.collection), in: RenderContext(locale: .enUS)).trailing == "$120.00")
        let people = try renderer("people")
        let rows = dataset.people.prefix(4).map { people.row(DemoItems.person($0, in: people.collection), in: RenderContext(locale: .enUS)) }
        #expect(Set(rows.map(\.title)) == ["Juan Chavez", "Mei Chen", "Bill James", "Anne Johnson"])
    }

    /// A page looks up only the referenced items its view shows.
    @Test func eachViewNamesTheReferencesItShows() throws {
        let people = try renderer("people")
        let department = try #require(people.collection.fieldIndex(named: "departmentID"))
        #expect(people.referenceFields(shownIn: .rows) == [])
        #expect(people.referenceFields(shownIn: .sections) == [department])
        #expect(people.referenceFields(shownIn: .table) == [])
        let samples = try renderer("samples")
        let track = try #require(samples.collection.fieldIndex(named: "trackID"))
        #expect(samples.referenceFields(shownIn: .rows) == [track])
        #expect(samples.referenceFields(shownIn: .table) == [track])
        #expect(try renderer("products").referenceFields(shownIn: .table) == [])
    }
}
