import DemoData
import Foundation
import Testing

@testable import Domain

@Suite("EntityID")
struct EntityIDTests {
    @Test("raw value is the prefix, an underscore and 16 Crockford digits", arguments: EntityKind.demoKinds)
    func rawValueShape(kind: EntityKind) {
        let id = EntityID(kind: kind, timestampMilliseconds: 1_767_225_600_000, randomBits: 0xDEAD_BEEF)
        #expect(id.rawValue.count == 20)
        #expect(id.rawValue.hasPrefix(kind.rawValue + "_"))
        #expect(id.rawValue.dropFirst(4).allSatisfy { "0123456789abcdefghjkmnpqrstvwxyz".contains($0) })
        #expect(id.description == id.rawValue)
    }

    @Test(
        "known values encode to known strings",
        arguments: [
            (EntityID(kind: .product, timestampMilliseconds: 0, randomBits: 0), "prd_0000000000000000"),
            (EntityID(kind: .person, timestampMilliseconds: 0, randomBits: 1), "per_0000000000000001"),
            (EntityID(kind: .article, timestampMilliseconds: 1, randomBits: 0), "art_0000000004000000"),
            (EntityID(kind: .track, timestampMilliseconds: (1 << 48) - 1, randomBits: .max), "trk_zzzzzzzzzzzzzzzz"),
        ]
    )
    func knownEncodings(id: EntityID, raw: String) {
        #expect(id.rawValue == raw)
        #expect(EntityID(parsing: raw) == id)
    }

    @Test("parsing round-trips every kind and random values")
    func parseFormatRoundTrip() throws {
        var random = SeededRandom(seed: 7)
        for kind in EntityKind.demoKinds {
            for _ in 0..<200 {
                let id = EntityID.generate(kind: kind, at: Int64(random.next(below: 1 << 47)), using: &random)
                let parsed = try #require(EntityID(parsing: id.rawValue, kind: kind))
                #expect(parsed == id)
                #expect(parsed.rawValue == id.rawValue)
            }
        }
    }

    @Test(
        "parsing rejects malformed ids",
        arguments: [
            "", "prd_", "prd_000000000000000", "prd_00000000000000000", "prd-0000000000000000", "prd00000000000000000",
            "x1z_0000000000000000", "pr__0000000000000000", "PRD_0000000000000000", "prd_000000000000000A", "prd_000000000000000i",
            "prd_000000000000000l", "prd_000000000000000o", "prd_000000000000000u", "prd_00000000000000 0",
            "prd_0000000000000é0", "prd_000000000000000\u{0}", " prd_0000000000000000",
        ]
    )
    func rejectsMalformed(raw: String) {
        #expect(EntityID(parsing: raw) == nil)
        #expect(EntityID(parsing: raw, kind: .product) == nil)
    }

    @Test("every byte at every digit place: the 32 canonical digits parse back to the same text, any other byte is refused")
    func everyByteAtEveryDigitPlace() {
        let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)
        let base = Array("prd_01k2m3n4p5q6r7s8".utf8)
        for place in 4..<EntityID.rawLength {
            for byte in UInt8.min...UInt8.max {
                var bytes = base
                bytes[place] = byte
                let parsed = bytes.withUnsafeBufferPointer { EntityID(parsingUTF8: $0, kind: .product) }
                if alphabet.contains(byte) {
                    #expect(parsed?.rawValue == String(decoding: bytes, as: UTF8.self), "byte \(byte) at \(place)")
                } else {
                    #expect(parsed == nil, "byte \(byte) at \(place)")
                }
            }
        }
    }

    @Test("kinds are open: any three lowercase letters parse, and only those", arguments: ["xyz", "tkt", "aaa", "zzz"])
    func anyThreeLetterPrefixParses(prefix: String) throws {
        let kind = try #require(EntityKind(prefix: prefix))
        let id = EntityID(kind: kind, timestampMilliseconds: 7, randomBits: 7)
        #expect(EntityID(parsing: id.rawValue) == id)
        #expect(EntityID(parsing: id.rawValue, kind: kind) == id)
    }

    @Test("a prefix is exactly three letters a to z", arguments: ["", "ab", "abcd", "ABC", "a1c", "é_a", "ab_"])
    func malformedPrefixesAreRefused(prefix: String) {
        #expect(EntityKind(prefix: prefix) == nil)
    }

    @Test("parsing with a kind rejects an id of another kind")
    func rejectsWrongKind() {
        let person = EntityID(kind: .person, timestampMilliseconds: 5, randomBits: 5)
        #expect(EntityID(parsing: person.rawValue, kind: .product) == nil)
        #expect(EntityID(parsing: person.rawValue, kind: .person) == person)
    }

    @Test("order of ids equals order of raw strings, and of creation time")
    func orderMatchesRawStrings() {
        var random = SeededRandom(seed: 99)
        let ids = (0..<500).map { _ in
            EntityID.generate(kind: random.pick(EntityKind.demoKinds), at: Int64(random.next(below: 1 << 40)), using: &random)
        }
        #expect(ids.sorted().map(\.rawValue) == ids.map(\.rawValue).sorted())
        let sameKind = (0..<100).map { EntityID.generate(kind: .product, at: Int64($0), using: &random) }
        #expect(sameKind.sorted() == sameKind)
    }

    @Test("generation clamps timestamps to 0 ... 2^48-1")
    func generationClampsTimestamps() {
        var random = SeededRandom(seed: 1)
        #expect(EntityID.generate(kind: .sample, at: -5, using: &random).timestampMilliseconds == 0)
        #expect(EntityID.generate(kind: .sample, at: .max, using: &random).timestampMilliseconds == (1 << 48) - 1)
    }

    @Test("system generation stamps the current time")
    func systemGenerationIsCurrent() {
        let before = UInt64(Date().timeIntervalSince1970 * 1000) - 1
        let id = EntityID.generate(kind: .product)
        let after = UInt64(Date().timeIntervalSince1970 * 1000) + 1
        #expect((before...after).contains(id.timestampMilliseconds))
        #expect(EntityID(parsing: id.rawValue, kind: .product) == id)
    }

    @Test("ids encode as their raw string and decoding rejects malformed ones")
    func codableAsString() throws {
        let id = Fixtures.id(.channel, 42)
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self) == "[\"\(id.rawValue)\"]")
        #expect(try JSONDecoder().decode([EntityID].self, from: data) == [id])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([EntityID].self, from: Data("[\"chn_nope\"]".utf8)) }
    }

    @Test("equal ids hash equally and distinct ids are distinct set members")
    func hashing() {
        var random = SeededRandom(seed: 3)
        let ids = (0..<1_000).map { EntityID.generate(kind: .person, at: Int64($0), using: &random) }
        #expect(Set(ids).count == 1_000)
        #expect(Set(ids.compactMap { EntityID(parsing: $0.rawValue) }) == Set(ids))
    }
}
