import Foundation
import RowKit
import Testing

/// RowKit reads every response shape openapi.yaml declares, so the client and the spec cannot
/// drift: a new shape either gets its RowKit type here or fails the test.
@Suite("RowKit decodes every response shape of openapi.yaml")
struct SpecShapesTests {
    /// What RowKit reads each schema as; schemas of routes that are not RowKit's (the health
    /// check, the explorer, metrics) are named here so that they are left out on purpose only.
    static func decode(_ schemaName: String?, _ body: Data) throws -> Bool {
        let decoder = JSONDecoder()
        switch schemaName {
        case "RowPage", "SectionPage", "TablePage", nil: _ = try decoder.decode(Page.self, from: body)
        case "ChangeFeed": _ = try decoder.decode(ChangeFeed.self, from: body)
        case "LetterIndex": _ = try decoder.decode(LetterIndex.self, from: body)
        case "Index": _ = try decoder.decode(ServiceIndex.self, from: body)
        case "Problem": _ = try decoder.decode(Problem.self, from: body)
        case let name? where name.hasSuffix("Detail"): _ = try decoder.decode(JSONValue.self, from: body)
        // `RowClient.batch` reads a batch's results as JSON and each one's item or problem from it.
        case let name? where name.hasSuffix("BatchResults"): _ = try decoder.decode(JSONValue.self, from: body)
        case "Health": return false
        case let name?: throw RowKitError.coding("no RowKit type for \(name)")
        }
        return true
    }

    @Test func everyResponseBodyDecodes() throws {
        let spec = try SpecInstances()
        let responses = spec.responses
        #expect(responses.count > 40)
        var decoded = 0
        var shapes = Set<String>()
        for (name, schema) in responses {
            // A `oneOf` of pages (rows or table) has no single name: each branch is a page.
            let schemaName = SpecInstances.referenceName(schema)
            for instance in spec.instances(schema) {
                let body = try JSONEncoder().encode(instance)
                do {
                    if try Self.decode(schemaName, body) { decoded += 1 }
                } catch {
                    Issue.record("\(name) (\(schemaName ?? "oneOf")): \(String(decoding: body, as: UTF8.self)): \(error)")
                }
            }
            shapes.insert(schemaName ?? "oneOf")
        }
        #expect(decoded > 100)
        #expect(shapes.isSuperset(of: ["ChangeFeed", "Index", "Problem", "oneOf"]))
    }

    @Test func theSmallestAndFullestPagesKeepTheirEmptyStateAndSortLinks() throws {
        let spec = try SpecInstances()
        let components = try #require((spec.document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        for name in ["RowPage", "SectionPage", "TablePage"] {
            let instances = spec.instances(try #require(components[name] as? [String: Any]))
            let pages = try instances.map { try JSONDecoder().decode(Page.self, from: try JSONEncoder().encode($0)) }
            #expect(pages.first?.empty == nil)
            #expect(pages.dropFirst().contains { $0.empty != nil })
            if name == "TablePage" {
                let columns = pages.compactMap { page -> [TableColumn]? in
                    guard case .table(let table) = page.content else { return nil }
                    return table.columns
                }
                #expect(columns.joined().contains { $0.links != nil })
            }
        }
    }
}
