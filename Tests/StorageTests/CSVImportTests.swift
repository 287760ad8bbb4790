import Definitions
import Domain
import Foundation
import Testing

@testable import Storage

/// `rowserver import` of a CSV file: a header of field names, cells read by each field's type.
@Suite("CSV import")
struct CSVImportTests {
    let directory: TemporaryDirectory
    let catalog: Catalog

    init() throws {
        directory = try TemporaryDirectory()
        catalog = try CatalogFixtures.tickets()
    }

    func write(_ text: String) throws -> String {
        let path = directory.path("import-\(UUID().uuidString).csv")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func cellsAreReadByTheirFieldsTypes() throws {
        let store = try directory.catalogStore(catalog: catalog)
        let agents = try CatalogFixtures.collection(catalog, "agents")
        let tickets = try CatalogFixtures.collection(catalog, "tickets")
        let agentID = EntityID.generate(kind: agents.kind)
        let agentsFile = try write("id,name,email,team\n\(agentID.rawValue),\"Díaz, Ana\",ana@example.com,billing\n")
        #expect(try CatalogImporter(collection: agents, catalog: catalog).runCSV(path: agentsFile, into: store) == 1)
        let ticketsFile = try write(
            """
            subject,status,priority,assigneeID,opened,due,billable,credit,description
            Printer jams,open,2,\(agentID.rawValue),2026-11-20,2026-11-25,true,EUR:12.50,"Two
            lines"
            VPN drops,pending,1,,2026-11-18,,false,,

            """)
        #expect(try CatalogImporter(collection: tickets, catalog: catalog).runCSV(path: ticketsFile, into: store) == 2)
        let rows = try store.walk(CatalogQuery(collection: tickets, limit: 10)).map(\.item)
        let printer = try #require(rows.first { $0.value(of: "subject", in: tickets) == .text("Printer jams") })
        #expect(printer.value(of: "priority", in: tickets) == .integer(2))
        #expect(printer.value(of: "billable", in: tickets) == .boolean(true))
        #expect(printer.value(of: "credit", in: tickets) == .money(Money(minorUnits: 1_250, currency: "EUR")))
        #expect(printer.value(of: "assigneeID", in: tickets) == .reference(agentID))
        #expect(printer.value(of: "description", in: tickets) == .text("Two\nlines"))
        let vpn = try #require(rows.first { $0.value(of: "subject", in: tickets) == .text("VPN drops") })
        #expect(vpn.value(of: "due", in: tickets) == .null)
        #expect(vpn.value(of: "credit", in: tickets) == .null)
        #expect(try store.item("agents", id: agentID)?.item.value(of: "name", in: agents) == .text("Díaz, Ana"))
    }

    @Test func badRecordsAreNamedAndNothingIsImported() throws {
        let store = try directory.catalogStore(catalog: catalog)
        let tickets = try CatalogFixtures.collection(catalog, "tickets")
        let file = try write(
            """
            subject,status,priority,opened,credit
            Fine,open,2,2026-11-20,USD:1.00
            Bad,lost,high,2026-13-01,XYZ:1
            Also fine,open,3,2026-11-21,

            """)
        #expect {
            try CatalogImporter(collection: tickets, catalog: catalog).runCSV(path: file, into: store)
        } throws: { error in
            guard case CatalogImporter.Failure.badLines(let bad, let total) = error else { return false }
            return total == 1 && bad.first?.line == 3 && bad[0].reason.contains("/status") && bad[0].reason.contains("/priority")
                && bad[0].reason.contains("/credit")
        }
        #expect(try store.walk(CatalogQuery(collection: tickets)).isEmpty)
        let unknown = try write("subject,colour\nA,red\n")
        #expect {
            try CatalogImporter(collection: tickets, catalog: catalog).runCSV(path: unknown, into: store)
        } throws: { error in
            "\(error)".contains("line 1: unknown columns colour")
        }
    }
}
