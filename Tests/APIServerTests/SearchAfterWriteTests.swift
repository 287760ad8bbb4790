import Foundation
import HTTPTestSupport
import ServerTestSupport
import Testing

/// A search answered after a write's acknowledgement holds that write, whatever the search index
/// has been told yet (on SQLite new rows wait for it, `SearchBacklog`), while other writers write.
@Suite("A search after a write finds it")
struct SearchAfterWriteTests {
    /// Words no demo text holds, made fresh per write: letters of a CJK block (one and two
    /// characters, which the search finds through the grams of its trigrams or the rows it
    /// walks) and a Latin word (a phrase of trigrams); plus the word's first letter and first
    /// two, which many rows hold (the plans that walk the order).
    struct Words {
        let one: String
        let two: String
        let word: String

        init() {
            func letter() -> String { String(Character(Unicode.Scalar(UInt32.random(in: 0x4E00...0x9FA5)) ?? "字")) }
            one = letter()
            two = letter() + letter()
            word = String((0..<9).map { _ in "bcdfghjklmnpqrstvwxz".randomElement() ?? "q" })
        }

        var name: String { "Item \(one) \(two) \(word)" }

        /// Each term a search takes: 1, 2, 3 and more characters, rare and common.
        var terms: [String] { [one, two, String(word.prefix(3)), word, "\(two) \(word.prefix(4))", String(word.prefix(1)), String(word.prefix(2))] }

        /// The terms only this write's name holds (gone once it is renamed).
        var ownTerms: [String] { [one, two, word] }
    }

    static let json = [("Content-Type", "application/json")]

    /// The ids of every row a search for `term` finds, following `links.next` (at most 50 pages).
    static func found(_ app: LiveStoreApplication, _ term: String, sort: String?) async throws -> Set<String> {
        let query = term.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? term
        var target: String? = "/v1/products?limit=200&q=\(query)" + (sort.map { "&sort=\($0)" } ?? "")
        var ids = Set<String>()
        var pages = 0
        while let next = target, pages < 50 {
            let response = try await fetch(port: app.port, next)
            let json = try #require(response.json, "\(next): \(response.status)")
            for row in json["rows"] as? [[String: Any]] ?? [] { if let id = row["id"] as? String { ids.insert(id) } }
            target = (json["links"] as? [String: Any])?["next"] as? String
            pages += 1
        }
        return ids
    }

    /// One writer: creates a product, searches for each of its terms, and with `renames`
    /// renames it to fresh words and searches again. Returns what a search missed or still found.
    static func write(_ app: LiveStoreApplication, writer: Int, rounds: Int, renames: Bool) async throws -> [String] {
        var failures: [String] = []
        for round in 0..<rounds {
            // Title order (the index's own, in SQLite), a sort by price and the descending title.
            let sort = [nil, "-price", "-name"][(writer + round) % 3]
            let words = Words()
            let body = #"{"name":"\#(words.name)","shortDescription":"Fresh","price":{"minorUnits":\#(100 + round),"currency":"USD"}}"#
            let created = try await app.write("POST", "/v1/products", headers: json, body: Array(body.utf8))
            #expect(created.status == 201)
            let id = try #require(created.json?["id"] as? String)
            let location = try #require(created.header("Location"))
            for term in words.terms where try await !found(app, term, sort: sort).contains(id) {
                failures.append("created \(id) not found by \(term) (sort \(sort ?? "none"))")
            }
            guard renames else { continue }
            let renamed = Words()
            let patch = #"{"name":"\#(renamed.name)"}"#
            let patched = try await app.write("PATCH", location, headers: [("Content-Type", "application/merge-patch+json")], body: Array(patch.utf8))
            #expect(patched.status == 200)
            for term in renamed.terms where try await !found(app, term, sort: sort).contains(id) {
                failures.append("renamed \(id) not found by \(term) (sort \(sort ?? "none"))")
            }
            for term in words.ownTerms where try await found(app, term, sort: sort).contains(id) {
                failures.append("renamed \(id) still found by its old \(term) (sort \(sort ?? "none"))")
            }
        }
        return failures
    }

    /// Creates only (on SQLite every new row waits for the index until the test ends), or
    /// creates and renames (each rename has the waiting rows indexed first).
    @Test(arguments: [false, true])
    func everyAcknowledgedWriteIsFoundByTheNextSearch(renames: Bool) async throws {
        let app = try LiveStoreApplication()
        let failures = try await withThrowingTaskGroup(of: [String].self) { group in
            for writer in 0..<4 {
                group.addTask { try await Self.write(app, writer: writer, rounds: 8, renames: renames) }
            }
            var failures: [String] = []
            for try await found in group { failures += found }
            return failures
        }
        #expect(failures.isEmpty, "\(failures.count) failures: \(failures.prefix(10))")
    }
}
