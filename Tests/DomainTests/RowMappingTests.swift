import Testing

@testable import Domain

@Suite("Row mapping")
struct RowMappingTests {
    @Test(
        "the seed's Keyboard maps to its row in every locale",
        arguments: [
            (RenderLocale.enUS, "$120.00"), (.enGB, "US$120.00"), (.deDE, "120,00\u{00A0}$"), (.frFR, "120,00\u{00A0}$US"),
            (.jaJP, "$120.00"),
        ]
    )
    func keyboardRow(locale: RenderLocale, price: String) {
        let row = Fixtures.keyboard.row(in: RenderContext(locale: locale))
        #expect(row == RenderRow(id: Fixtures.keyboard.id, title: "Keyboard", subtitle: "Mechanical", trailing: price, image: nil))
    }

    @Test(
        "the seed's staff map to name, phone and the phone image",
        arguments: [
            (Fixtures.juan, "Juan Chavez", "(408) 555-4301"), (Fixtures.mei, "Mei Chen", "(919) 555-2481"),
            (Fixtures.bill, "Bill James", "(408) 555-4450"), (Fixtures.anne, "Anne Johnson", "(417) 555-9311"),
        ]
    )
    func personRow(person: Person, name: String, phone: String) {
        #expect(person.row(in: Fixtures.enUS) == RenderRow(id: person.id, title: name, subtitle: phone, trailing: nil, image: "phone"))
    }

    @Test("departments and tracks map to their rows")
    func otherRows() {
        #expect(Fixtures.sales.row(in: Fixtures.enUS) == RenderRow(id: Fixtures.sales.id, title: "Sales", image: "building.2"))
        let track = Track(
            id: Fixtures.id(.track, 1),
            title: "Studio Session",
            channels: [AudioChannel(id: Fixtures.id(.channel, 1), name: "Left"), AudioChannel(id: Fixtures.id(.channel, 2), name: "Right")]
        )
        #expect(track.row(in: Fixtures.enUS) == RenderRow(id: track.id, title: "Studio Session", subtitle: "Left, Right", image: "waveform"))
        let silent = Track(id: Fixtures.id(.track, 2), title: "Silence", channels: [])
        #expect(silent.row(in: Fixtures.enUS).subtitle == nil)
    }

    @Test("a page maps in order with one context")
    func pageMapping() {
        let products = Array(DemoData(seed: 3).products(count: 50))
        let rows = Product.rows(products, in: Fixtures.enUS)
        #expect(rows.map(\.id) == products.map(\.id))
        #expect(rows == products.map { $0.row(in: Fixtures.enUS) })
    }
}
