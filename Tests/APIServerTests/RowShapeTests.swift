import DemoData
import Domain
import Foundation
import Testing

@Suite("JSON shape")
struct RowShapeTests {
    static func object(_ value: some Encodable) throws -> [String: Any] {
        let data = try JSONEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("a row without subtitle, trailing or image still has those keys, as null")
    func absentValuesAreNull() throws {
        let row = RenderRow(id: DemoRowsTests.id(.article, 1), title: "Only a title")
        let object = try Self.object(row)
        #expect(Set(object.keys) == ["id", "title", "subtitle", "trailing", "image"])
        #expect(object["subtitle"] is NSNull)
        #expect(object["trailing"] is NSNull)
        #expect(object["image"] is NSNull)
        #expect(object["id"] as? String == row.id.rawValue)
        let text = String(decoding: try JSONEncoder().encode(row), as: UTF8.self)
        #expect(text.contains("\"subtitle\":null"))
    }

    @Test("rows and table rows round-trip through JSON")
    func roundTrip() throws {
        let dataset = DemoData(seed: 8).dataset()
        let rows = dataset.products.prefix(20).map { RenderRow(id: $0.id, title: $0.name, subtitle: $0.shortDescription, trailing: "$1.00") }
        #expect(try JSONDecoder().decode([RenderRow].self, from: JSONEncoder().encode(rows)) == rows)
        let tableRows = dataset.people.prefix(5).map {
            TableRow(id: $0.id, cells: ["givenName": $0.givenName], compact: CompactSummary(title: $0.fullName, subtitle: nil))
        }
        #expect(try JSONDecoder().decode([TableRow].self, from: JSONEncoder().encode(tableRows)) == tableRows)
    }

    @Test("a compact summary without subtitle encodes null")
    func compactSubtitleIsNull() throws {
        let object = try Self.object(CompactSummary(title: "0 ms"))
        #expect(object["subtitle"] is NSNull)
    }
}
