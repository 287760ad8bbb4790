import APIServer
import Definitions
import Domain
import Foundation
import HTTPServer
import HTTPTestSupport
import ServerTestSupport
import Storage
import Testing

/// Generated definitions: each starts a server over a real SQLite file filled with sample
/// items; every full walk (each sort both ways, the sections) returns every item exactly once
/// in the order the definition declares, computed here independently; filters keep exactly
/// their items; writes validate as declared.
@Suite("Generated definitions", .runsOnce("a SQLite store of its own"))
struct RandomDefinitionTests {
    /// One sort key: bytes compare like SQLite's BINARY collation, numbers numerically.
    enum Key: Comparable {
        case bytes([UInt8])
        case number(Int64)

        static func < (lhs: Key, rhs: Key) -> Bool {
            switch (lhs, rhs) {
            case (.bytes(let a), .bytes(let b)): a.lexicographicallyPrecedes(b)
            case (.number(let a), .number(let b)): a < b
            case (.number, .bytes): true
            case (.bytes, .number): false
            }
        }
    }

    static func text(_ value: String) -> Key { .bytes(Array(value.utf8)) }

    /// The keys a sort by `field` compares, as the definition's reference describes them.
    static func keys(_ value: FieldValue, _ type: FieldType) -> [Key] {
        switch (type, value) {
        case (.money, .money(let money)): [text(money.currency), .number(money.minorUnits)]
        case (.money, _): [text(""), .number(Int64.min)]
        case (.enumeration(let cases), .text(let raw)): [.number(Int64(cases.firstIndex { $0.value == raw } ?? -1))]
        case (.enumeration, _), (.boolean, .null): [.number(-1)]
        case (.boolean, .boolean(let flag)): [.number(flag ? 1 : 0)]
        case (.date, .text(let raw)): [text(raw)]
        case (_, .text(let raw)): [text(searchFolded(raw))]
        case (_, .integer(let number)): [.number(number)]
        case (.integer, _), (.decimal, _), (.dateTime, _): [.number(Int64.min)]
        default: [text("")]
        }
    }

    struct Setup {
        let definition: RandomDefinition
        let catalog: Catalog
        let things: CollectionDefinition
        let items: [Item]
        let owners: [EntityID: String]
        let server: LiveApplication
        let directory: URL
        /// `Authorization` with a key that has the write scope.
        let authorization: (String, String)
    }

    static func setUp(seed: UInt64) throws -> Setup {
        let definition = RandomDefinition(seed: seed)
        let catalog = try definition.catalog()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-random-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try CatalogStore(path: directory.appendingPathComponent("random.sqlite").path, catalog: catalog)
        var made: [(CollectionDefinition, Item)] = []
        try SampleGenerator(catalog: catalog, seed: seed, counts: ["owners": 4, "things": 45]).generate { made.append(($0, $1)) }
        _ = try store.bulkLoad { loader in
            for (collection, item) in made { try loader.insert(item, into: collection.name) }
        }
        let server = try LiveApplication(store: store)
        let key = try KeyStore(path: store.path).create(name: "test", scopes: ["write"], at: 0).secret
        let things = try #require(catalog.collection(named: "things"))
        let ownersCollection = try #require(catalog.collection(named: "owners"))
        var owners: [EntityID: String] = [:]
        for (collection, item) in made where collection.name == "owners" {
            owners[item.id] = item.value(of: "name", in: ownersCollection).text
        }
        return Setup(
            definition: definition, catalog: catalog, things: things, items: made.filter { $0.0.name == "things" }.map(\.1), owners: owners,
            server: server, directory: directory, authorization: ("Authorization", "Bearer " + key))
    }

    func walk(_ setup: Setup, _ target: String) async throws -> [String] {
        var ids: [String] = []
        var next: String? = target
        var pages = 0
        while let current = next, pages < 200 {
            let response = try await fetch(port: setup.server.port, current)
            #expect(response.status == 200, "\(current): \(response.text)")
            let json = try #require(response.json)
            if let rows = json["rows"] as? [[String: Any]] {
                ids += rows.compactMap { $0["id"] as? String }
            } else if let sections = json["sections"] as? [[String: Any]] {
                ids += sections.flatMap { ($0["rows"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
            }
            next = (json["links"] as? [String: Any])?["next"] as? String
            pages += 1
        }
        return ids
    }

    func expected(_ setup: Setup, sort field: String, descending: Bool, sections: Bool = false, keep: (Item) -> Bool = { _ in true }) throws
        -> [String]
    {
        let things = setup.things
        func keys(_ item: Item) -> [(Key, Bool)] {
            var keys: [(Key, Bool)] = []
            if sections, let name = setup.definition.sections, let index = things.fieldIndex(named: name) {
                let value = item.value(of: name, in: things)
                switch things.fields[index].type {
                case .reference:
                    let id = value.reference
                    keys.append((Self.text(searchFolded(id.flatMap { setup.owners[$0] } ?? "")), false))
                    keys.append((Self.text(id?.rawValue ?? ""), false))
                default:
                    keys += Self.keys(value, things.fields[index].type).map { ($0, false) }
                    keys.append((Self.text(value.text ?? ""), false))
                }
            }
            if let index = things.fieldIndex(named: field) {
                keys += Self.keys(item.value(of: field, in: things), things.fields[index].type).map { ($0, descending) }
            }
            keys.append((Self.text(item.id.rawValue), false))
            return keys
        }
        let keyed = setup.items.filter(keep).map { (keys($0), $0.id.rawValue) }
        return keyed.sorted { lhs, rhs in
            for ((left, descending), (right, _)) in zip(lhs.0, rhs.0) where left != right {
                return descending ? right < left : left < right
            }
            return false
        }.map(\.1)
    }

    @Test(arguments: Array(UInt64(1)...UInt64(12)))
    func everyWalkReturnsEveryItemOnceInTheDeclaredOrder(seed: UInt64) async throws {
        let setup = try Self.setUp(seed: seed)
        defer {
            setup.server.application.shutdown(gracePeriod: 1)
            try? FileManager.default.removeItem(at: setup.directory)
        }
        for field in ["label"] + setup.definition.sorts {
            for descending in [false, true] {
                let walked = try await walk(setup, "/v1/things?limit=7&sort=\(descending ? "-" : "")\(field)")
                #expect(Set(walked).count == walked.count, "seed \(seed) sort \(field): a repeat")
                #expect(
                    walked == (try expected(setup, sort: field, descending: descending)),
                    "seed \(seed) sort \(descending ? "-" : "")\(field)\n\(setup.definition.yaml)")
            }
        }
        if setup.definition.sections != nil {
            let walked = try await walk(setup, "/v1/things?limit=6&group=group")
            #expect(
                walked == (try expected(setup, sort: "label", descending: false, sections: true)), "seed \(seed) sections\n\(setup.definition.yaml)")
        }
    }

    @Test(arguments: Array(UInt64(1)...UInt64(12)))
    func filtersKeepExactlyTheirItemsAndWritesValidateAsDeclared(seed: UInt64) async throws {
        let setup = try Self.setUp(seed: seed)
        defer {
            setup.server.application.shutdown(gracePeriod: 1)
            try? FileManager.default.removeItem(at: setup.directory)
        }
        let things = setup.things
        for field in setup.definition.fields {
            guard let op = field.filter, let sample = setup.items.first(where: { !$0.value(of: field.name, in: things).isNull }) else { continue }
            let value = sample.value(of: field.name, in: things)
            let text: String
            let keep: (Item) -> Bool
            switch value {
            case .text(let raw) where op == "atMost":
                text = raw
                keep = { ($0.value(of: field.name, in: things).text ?? "9999") <= raw && !$0.value(of: field.name, in: things).isNull }
            case .text(let raw):
                text = raw
                keep = { $0.value(of: field.name, in: things).text == raw }
            case .integer(let number):
                text = String(number)
                keep = { ($0.value(of: field.name, in: things).integer ?? Int64.min) >= number && !$0.value(of: field.name, in: things).isNull }
            case .boolean(let flag):
                text = flag ? "true" : "false"
                keep = { $0.value(of: field.name, in: things) == .boolean(flag) }
            case .reference(let id):
                text = id.rawValue
                keep = { $0.value(of: field.name, in: things).reference == id }
            case .money(let money):
                let digits = Currency(code: money.currency)?.minorUnitDigits ?? 2
                text = "\(money.currency):\(DecimalText.plain(money.minorUnits, scale: digits))"
                keep = { item in
                    guard case .money(let other) = item.value(of: field.name, in: things) else { return false }
                    return other.currency == money.currency && other.minorUnits >= money.minorUnits
                }
            default:
                continue
            }
            let encoded = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
            let walked = try await walk(setup, "/v1/things?limit=9&\(field.name)Filter=\(encoded)")
            #expect(walked == (try expected(setup, sort: "label", descending: false, keep: keep)), "seed \(seed) filter \(field.name)=\(text)")
        }
        // A write with every field as the samples have them is accepted; one without a required field is a 422 naming it.
        let sample = try #require(setup.items.first)
        var document = ItemDocument.writable(sample, in: things)
        if case .object(var members) = document {
            members.removeAll { $0.key == "id" }
            document = .object(members)
        }
        let created = try await fetch(
            port: setup.server.port, "POST", "/v1/things", headers: [setup.authorization, ("Content-Type", "application/json")],
            body: Array(document.text.utf8))
        #expect(created.status == 201, "seed \(seed): \(created.text)")
        if let required = things.fields.first(where: { $0.rules.required && $0.isStored && $0.defaultValue == nil }),
            case .object(let members) = document
        {
            let missing = JSONValue.object(members.filter { $0.key != required.name })
            let refused = try await fetch(
                port: setup.server.port, "POST", "/v1/things", headers: [setup.authorization, ("Content-Type", "application/json")],
                body: Array(missing.text.utf8))
            #expect(refused.status == 422)
            #expect(refused.problemPointers.contains("/\(required.name)"), "seed \(seed): \(refused.text)")
        }
    }
}
