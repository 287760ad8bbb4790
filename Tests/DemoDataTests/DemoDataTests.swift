import DemoData
import Domain
import Foundation
import Testing

@Suite("Demo data")
struct DemoDataTests {
    static let dataset = DemoData(seed: 42).dataset()

    @Test("the same seed gives the same data and ids; another seed gives other data")
    func determinism() {
        let again = DemoData(seed: 42).dataset()
        #expect(again == Self.dataset)
        let other = DemoData(seed: 43).dataset()
        #expect(other.products.map(\.id) != Self.dataset.products.map(\.id))
        #expect(other.people.map(\.fullName) != Self.dataset.people.map(\.fullName))
    }

    @Test("the standard volume")
    func volume() {
        let d = Self.dataset
        #expect(d.products.count == 1_000)
        #expect(d.departments.count == 8)
        #expect(d.people.count == 200)
        #expect(d.articles.count == 300)
        #expect(d.documents.count == 300)
        #expect(d.tracks.count == 3)
        #expect(d.tracks.map(\.channels.count).allSatisfy { (2...8).contains($0) })
        #expect(d.tracks.first?.channels.count == 2)
        #expect(d.tracks.last?.channels.count == 8)
        #expect(d.tracks.allSatisfy { d.samples(of: $0.id).count == 500 })
        #expect(d.samples.allSatisfy { sample in d.tracks.first { $0.id == sample.trackID }?.channels.count == sample.levels.count })
        #expect(Set(d.people.map(\.departmentID)) == Set(d.departments.map(\.id)))
    }

    @Test("the seed examples are in the data exactly")
    func seedExamples() throws {
        let d = Self.dataset
        let keyboard = try #require(d.products.first)
        #expect([keyboard.name, keyboard.shortDescription] == ["Keyboard", "Mechanical"])
        #expect(keyboard.price == Money(minorUnits: 120_00, currency: "USD"))
        let staff = d.people.prefix(4).map { person in
            (person.fullName, person.phoneNumber, d.departments.first { $0.id == person.departmentID }?.name)
        }
        #expect(staff.map(\.0) == ["Juan Chavez", "Mei Chen", "Bill James", "Anne Johnson"])
        #expect(staff.map(\.1) == ["(408) 555-4301", "(919) 555-2481", "(408) 555-4450", "(417) 555-9311"])
        #expect(staff.map(\.2) == ["Sales", "Sales", "Engineering", "Engineering"])
    }

    @Test("every id is unique, of the right kind, and parses back")
    func idsAreUnique() {
        let d = Self.dataset
        let ids: [(EntityID, EntityKind)] =
            d.products.map { ($0.id, .product) } + d.departments.map { ($0.id, .department) } + d.people.map { ($0.id, .person) }
            + d.articles.map { ($0.id, .article) } + d.documents.map { ($0.id, .document) } + d.tracks.map { ($0.id, .track) }
            + d.tracks.flatMap(\.channels).map { ($0.id, .channel) } + d.samples.map { ($0.id, .sample) }
        #expect(Set(ids.map(\.0)).count == ids.count)
        #expect(Set(ids.map(\.0.rawValue)).count == ids.count)
        #expect(ids.allSatisfy { $0.0.kind == $0.1 && EntityID(parsing: $0.0.rawValue, kind: $0.1) == $0.0 })
        #expect(d.products.map(\.id) == d.products.map(\.id).sorted())
    }

    @Test("the product stream is lazy, deterministic and starts like the dataset")
    func productStream() {
        let stream = DemoData(seed: 42).products(count: 20_000)
        var iterator = stream.makeIterator()
        var count = 0
        var ids = Set<EntityID>()
        var currencies: [String: Int] = [:]
        while let product = iterator.next() {
            if count < 1_000 { #expect(product == Self.dataset.products[count]) }
            ids.insert(product.id)
            currencies[product.price.currency, default: 0] += 1
            count += 1
        }
        #expect(count == 20_000)
        #expect(ids.count == 20_000)
        #expect(Set(currencies.keys) == ["USD", "EUR", "GBP", "JPY"])
        #expect((currencies["USD"] ?? 0) > 10_000)
        #expect(Array(stream.prefix(3)) == Array(DemoData(seed: 42).products(count: 3)))
    }

    @Test("people have accented names, seed-style phone numbers and unique ASCII e-mails found by folded search")
    func people() {
        let people = Self.dataset.people
        #expect(people.contains { $0.givenName == "José" })
        #expect(people.contains { $0.fullName.unicodeScalars.contains { !$0.isASCII } })
        #expect(people.filter { searchFolded($0.fullName).contains("jose") }.contains { $0.givenName == "José" })
        let phone = /^\(\d{3}\) 555-\d{4}$/
        #expect(people.allSatisfy { $0.phoneNumber.wholeMatch(of: phone) != nil })
        #expect(Set(people.map(\.emailAddress)).count == people.count)
        #expect(people.allSatisfy { $0.emailAddress.unicodeScalars.allSatisfy(\.isASCII) && $0.emailAddress.hasSuffix("@example.com") })
    }

    @Test("article and document texts vary: blank, short, long, emoji and CJK")
    func texts() {
        let bodies = Self.dataset.articles.map(\.markdown) + Self.dataset.documents.map(\.body)
        #expect(bodies.contains(""))
        #expect(bodies.contains { !$0.isEmpty && $0.allSatisfy(\.isWhitespace) })
        #expect(bodies.contains { $0.contains("👩🏽‍💻") })
        #expect(bodies.contains { $0.contains("東京") })
        // Previews meet every case: none (blank), cut with "…", and shorter than the cut.
        #expect(Self.dataset.articles.contains { truncatedPreview(MarkdownPlainText.plainText(of: $0.markdown), limit: 48) == nil })
        #expect(Self.dataset.articles.contains { MarkdownPlainText.plainText(of: $0.markdown).count > 48 })
        #expect(Self.dataset.documents.contains { (truncatedPreview($0.body, limit: 56)?.count ?? 99) < 56 })
    }

    @Test("a smaller volume still includes the seed examples")
    func smallVolume() {
        let small = DemoData(seed: 1).dataset(volume: .init(products: 1, departments: 2, people: 4, articles: 0, documents: 0, tracks: 1, samples: 2))
        #expect(small.products.map(\.name) == ["Keyboard"])
        #expect(small.people.map(\.fullName) == ["Juan Chavez", "Mei Chen", "Bill James", "Anne Johnson"])
        #expect(small.tracks.map(\.channels.count) == [2])
        #expect(small.samples.map(\.timestampMilliseconds) == [0, 10])
    }

    @Test("models encode their full payload with camelCase keys")
    func modelKeys() throws {
        func keys(_ value: some Encodable) throws -> Set<String> {
            Set(try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any]).keys)
        }
        let d = Self.dataset
        #expect(try keys(d.products[0]) == ["id", "name", "shortDescription", "longDescription", "price"])
        #expect(try keys(d.people[0]) == ["id", "givenName", "familyName", "emailAddress", "phoneNumber", "departmentID"])
        #expect(try keys(d.samples[0]) == ["id", "trackID", "timestampMilliseconds", "levels"])
        #expect(try JSONDecoder().decode([Product].self, from: JSONEncoder().encode(d.products)) == d.products)
    }
}
