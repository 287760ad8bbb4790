import Definitions
import Domain
import Foundation
import HTTPServer
import Testing

@testable import APIServer

/// A detail's links beyond `self` and `collection`, worked out once per collection: the item a
/// reference names, the lists under the item, and the lists a filter of another collection
/// narrows to it.
@Suite struct DetailPlanTests {
    static let tickets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/tickets.yaml")
        .standardized.path

    /// Each link as `key: prefix…suffix` (`key: prefix<ref>` for a reference).
    static func links(_ collection: String, tickets: Bool = false) throws -> [String] {
        let catalog = try tickets ? DefinitionLoader.load(path: Self.tickets) : DefinitionLoader.demo()
        let definition = try #require(catalog.collection(named: collection))
        return DetailPlan(definition, catalog: catalog).links.map { link in
            switch link {
            case .reference(let key, _, let prefix): "\(text(key)) \(prefix)<ref>"
            case .around(let key, let prefix, let suffix): "\(text(key)) \(prefix)<id>\(suffix)"
            }
        }
    }

    static func text(_ key: JSONWriter.Key) -> String {
        var writer = JSONWriter()
        writer.key(key)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test(arguments: [
        ("products", false, [String]()),
        ("departments", false, [#""people": /v1/people?department=<id>"#]),
        ("tracks", false, [#""samples": /v1/tracks/<id>/samples"#, #""samplesTable": /v1/tracks/<id>/samples?view=table"#]),
        ("samples", false, [#""track": /v1/tracks/<ref>"#]),
        ("agents", true, [#""tickets": /v1/tickets?assignee=<id>"#]),
        ("tickets", true, [#""assignee": /v1/agents/<ref>"#, #""comments": /v1/tickets/<id>/comments"#]),
        ("comments", true, [#""ticket": /v1/tickets/<ref>"#]),
    ])
    func linksFollowTheDefinition(collection: String, tickets: Bool, expected: [String]) throws {
        #expect(try Self.links(collection, tickets: tickets) == expected)
    }

    @Test func anEmbeddedReferenceNamesItsTargetsTitleField() throws {
        let catalog = try DefinitionLoader.demo()
        let people = try #require(catalog.collection(named: "people"))
        let plan = DetailPlan(people, catalog: catalog)
        let embeds = plan.embeds.compactMap { $0 }
        #expect(embeds.count == 1)
        #expect(embeds.map { Self.text($0.key) } == [#""department":"#])
        #expect(embeds.map { Self.text($0.titleKey) } == [#""name":"#])
        #expect(embeds.map(\.detailPrefix) == ["/v1/departments/"])
        #expect(plan.fieldKeys.count == people.fields.count)
    }
}
