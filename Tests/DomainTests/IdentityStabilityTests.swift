import Testing

@testable import Domain

/// Editing any mutable field changes what a row shows, never which row it is.
@Suite("Identity stability")
struct IdentityStabilityTests {
    typealias Edit<Model> = (name: String, apply: (inout Model) -> Void)

    static func check<Model: RowRepresentable & Equatable>(_ original: Model, _ edits: [Edit<Model>]) {
        let before = original.row(in: Fixtures.enUS)
        for edit in edits {
            var edited = original
            edit.apply(&edited)
            #expect(edited != original, "edit \(edit.name) changed nothing")
            #expect(edited.id == original.id, "edit \(edit.name) changed the id")
            #expect(edited.row(in: Fixtures.enUS).id == before.id, "edit \(edit.name) changed the row id")
        }
    }

    @Test("editing a product keeps its id")
    func product() {
        Self.check(
            Fixtures.keyboard,
            [
                ("name", { $0.name = "Keypad" }), ("shortDescription", { $0.shortDescription = "Membrane" }),
                ("longDescription", { $0.longDescription = "New." }), ("price.minorUnits", { $0.price.minorUnits = 99 }),
                ("price.currency", { $0.price.currency = "EUR" }),
            ]
        )
    }

    @Test("editing a person keeps their id")
    func person() {
        Self.check(
            Fixtures.juan,
            [
                ("givenName", { $0.givenName = "Juana" }), ("familyName", { $0.familyName = "Chávez" }),
                ("emailAddress", { $0.emailAddress = "j@example.com" }), ("phoneNumber", { $0.phoneNumber = "(408) 555-0000" }),
                ("departmentID", { $0.departmentID = Fixtures.engineering.id }),
            ]
        )
    }

    @Test("editing departments, articles, documents and tracks keeps their ids")
    func others() {
        Self.check(Fixtures.sales, [("name", { $0.name = "Revenue" })])
        Self.check(
            Article(id: Fixtures.id(.article, 1), headline: "A", markdown: "m"),
            [("headline", { $0.headline = "B" }), ("markdown", { $0.markdown = "n" })]
        )
        Self.check(
            Document(id: Fixtures.id(.document, 1), title: "T", body: "b"),
            [("title", { $0.title = "U" }), ("body", { $0.body = "c" })]
        )
        let channel = AudioChannel(id: Fixtures.id(.channel, 1), name: "Left")
        Self.check(
            Track(id: Fixtures.id(.track, 1), title: "T", channels: [channel]),
            [("title", { $0.title = "U" }), ("channels", { $0.channels.append(AudioChannel(id: Fixtures.id(.channel, 2), name: "Right")) })]
        )
    }

    @Test("editing a sample or a channel keeps its id and its table row id")
    func samplesAndChannels() {
        let track = Track(id: Fixtures.id(.track, 1), title: "T", channels: [AudioChannel(id: Fixtures.id(.channel, 1), name: "L")])
        let table = SampleTable(track: track)
        let sample = AudioSample(id: Fixtures.id(.sample, 1), trackID: track.id, timestampMilliseconds: 0, levels: [0.1])
        var edited = sample
        edited.timestampMilliseconds = 10
        edited.levels = [0.9]
        #expect(table.row(for: edited, in: Fixtures.enUS).id == table.row(for: sample, in: Fixtures.enUS).id)
        var renamed = track
        renamed.channels[0].name = "Left"
        #expect(SampleTable(track: renamed).columns.map(\.id) == table.columns.map(\.id))
    }
}
