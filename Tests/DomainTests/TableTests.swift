import Testing

@testable import Domain

@Suite("Tables")
struct TableTests {
    @Test("people table: the seed's columns and a compact summary of full name over e-mail")
    func peopleTable() {
        let table = PeopleTable.table([Fixtures.juan], in: Fixtures.enUS)
        #expect(
            table.columns == [
                TableColumn(id: "givenName", title: "Given Name", sortable: true, alignment: .leading),
                TableColumn(id: "familyName", title: "Family Name", sortable: true, alignment: .leading),
                TableColumn(id: "emailAddress", title: "E-Mail Address", sortable: true, alignment: .leading),
            ]
        )
        #expect(
            table.rows == [
                TableRow(
                    id: Fixtures.juan.id,
                    cells: ["givenName": "Juan", "familyName": "Chavez", "emailAddress": "juan.chavez@example.com"],
                    compact: CompactSummary(title: "Juan Chavez", subtitle: "juan.chavez@example.com")
                )
            ]
        )
    }

    @Test(
        "product table: base price and the seed's computed tip columns",
        arguments: [
            (RenderLocale.enUS, Int64(20_00), "$20.00", "$23.00", "$24.00"),
            (.enUS, 50_00, "$50.00", "$57.50", "$60.00"),
            (.enUS, 75_00, "$75.00", "$86.25", "$90.00"),
            (.enUS, 10, "$0.10", "$0.12", "$0.12"),
            (.deDE, 120_00, "120,00\u{00A0}$", "138,00\u{00A0}$", "144,00\u{00A0}$"),
            (.frFR, 1_000_00, "1\u{202F}000,00\u{00A0}$US", "1\u{202F}150,00\u{00A0}$US", "1\u{202F}200,00\u{00A0}$US"),
        ]
    )
    func productTable(locale: RenderLocale, minor: Int64, base: String, tip15: String, tip20: String) {
        var product = Fixtures.keyboard
        product.price = Money(minorUnits: minor, currency: "USD")
        let table = ProductTable.table([product], in: RenderContext(locale: locale))
        #expect(table.columns.map(\.id) == ["name", "shortDescription", "price", "tip15", "tip20"])
        #expect(table.columns.map(\.title) == ["Name", "Description", "Base price", "With 15% tip", "With 20% tip"])
        #expect(table.columns.map(\.alignment) == [.leading, .leading, .numeric, .numeric, .numeric])
        #expect(table.columns.map(\.sortable) == [true, true, true, false, false])
        #expect(
            table.rows == [
                TableRow(
                    id: product.id,
                    cells: ["name": "Keyboard", "shortDescription": "Mechanical", "price": base, "tip15": tip15, "tip20": tip20],
                    compact: CompactSummary(title: "Keyboard", subtitle: base)
                )
            ]
        )
    }

    @Test("a tip too large to compute shows the unavailable cell")
    func tipOverflow() {
        var product = Fixtures.keyboard
        product.price = Money(minorUnits: .max, currency: "USD")
        let row = ProductTable.row(for: product, in: Fixtures.enUS)
        #expect(row.cells["tip15"] == "\u{2014}")
        #expect(row.cells["price"] == "$92,233,720,368,547,758.07")
    }

    static let track = Track(
        id: Fixtures.id(.track, 1),
        title: "Stereo",
        channels: [AudioChannel(id: Fixtures.id(.channel, 1), name: "Left"), AudioChannel(id: Fixtures.id(.channel, 2), name: "Right")]
    )

    @Test(
        "samples table: a timestamp column plus one numeric column per channel",
        arguments: [
            (RenderLocale.enUS, "1,250", "0.57", "0.10", "1,250 ms"),
            (.deDE, "1.250", "0,57", "0,10", "1.250 ms"),
            (.frFR, "1\u{202F}250", "0,57", "0,10", "1\u{202F}250 ms"),
        ]
    )
    func samplesTable(locale: RenderLocale, time: String, left: String, right: String, compactTitle: String) {
        let sample = AudioSample(id: Fixtures.id(.sample, 1), trackID: Self.track.id, timestampMilliseconds: 1_250, levels: [0.5678, 0.1])
        let table = SampleTable(track: Self.track).table([sample], in: RenderContext(locale: locale))
        let left0 = Self.track.channels[0].id.rawValue
        let right0 = Self.track.channels[1].id.rawValue
        #expect(
            table.columns == [
                TableColumn(id: "timestamp", title: "Timestamp (ms)", sortable: true, alignment: .numeric),
                TableColumn(id: left0, title: "Left", sortable: false, alignment: .numeric),
                TableColumn(id: right0, title: "Right", sortable: false, alignment: .numeric),
            ]
        )
        #expect(
            table.rows == [
                TableRow(
                    id: sample.id,
                    cells: ["timestamp": time, left0: left, right0: right],
                    compact: CompactSummary(title: compactTitle, subtitle: "Left \(left), Right \(right)")
                )
            ]
        )
    }

    @Test("columns follow each track's channels, 2 to 8 of them", arguments: 0...8)
    func dynamicColumnCount(channels: Int) {
        let track = Track(
            id: Fixtures.id(.track, 9),
            title: "T",
            channels: (0..<channels).map { AudioChannel(id: Fixtures.id(.channel, UInt64(100 + $0)), name: "C\($0)") }
        )
        let table = SampleTable(track: track)
        #expect(table.columns.count == channels + 1)
        #expect(table.columns.dropFirst().map(\.id) == track.channels.map(\.id.rawValue))
        let sample = AudioSample(
            id: Fixtures.id(.sample, 2),
            trackID: track.id,
            timestampMilliseconds: 0,
            levels: Array(repeating: 0.25, count: channels)
        )
        let row = table.row(for: sample, in: Fixtures.enUS)
        #expect(Set(row.cells.keys) == Set(table.columns.map(\.id)))
        #expect(row.compact.subtitle == (channels == 0 ? nil : (0..<channels).map { "C\($0) 0.25" }.joined(separator: ", ")))
    }

    @Test("a sample missing a channel's level still has every cell")
    func missingLevel() {
        let sample = AudioSample(id: Fixtures.id(.sample, 3), trackID: Self.track.id, timestampMilliseconds: 10, levels: [0.5])
        let row = SampleTable(track: Self.track).row(for: sample, in: Fixtures.enUS)
        #expect(row.cells[Self.track.channels[1].id.rawValue] == "\u{2014}")
        #expect(row.cells.count == 3)
        #expect(sample.level(of: Self.track.channels[0].id, in: Self.track) == 0.5)
        #expect(sample.level(of: Self.track.channels[1].id, in: Self.track) == nil)
    }

    @Test("every demo track's table has one column per channel and constant row shape")
    func demoTracks() {
        let dataset = DemoData(seed: 42).dataset()
        for track in dataset.tracks {
            let table = SampleTable(track: track).table(dataset.samples(of: track.id), in: Fixtures.enUS)
            #expect(table.rows.count == 500)
            #expect(table.rows.allSatisfy { Set($0.cells.keys) == Set(table.columns.map(\.id)) })
        }
    }
}
