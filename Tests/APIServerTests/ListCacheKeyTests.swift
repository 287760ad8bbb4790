import Domain
import Testing

@testable import APIServer

/// A list's cache key spells out everything its tag digests; different inputs never share one.
@Suite("List cache keys", .runsOnce("no store"))
struct ListCacheKeyTests {
    @Test(arguments: [
        ([Int64(7)], "/v1/products?limit=50", RenderLocale.enUS, "L7|en-US|/v1/products?limit=50"),
        ([7, 12], "/v1/people?group=department", .deDE, "L7,12|de-DE|/v1/people?group=department"),
        ([], "/v1/x", .jaJP, "L|ja-JP|/v1/x"),
        ([0, Int64.max, 10], "/v1/caf%C3%A9?q=ü", .enUS, "L0,9223372036854775807,10|en-US|/v1/caf%C3%A9?q=ü"),
    ])
    func spellsVersionsLocaleAndTarget(versions: [Int64], target: String, locale: RenderLocale, expected: String) {
        #expect(ListCacheKey.make(versions: versions, target: target, locale: locale) == expected)
    }

    @Test func differentInputsNeverShareAKey() {
        let inputs: [([Int64], String, RenderLocale)] = [
            ([1], "/v1/p", .enUS), ([11], "/v1/p", .enUS), ([1, 1], "/v1/p", .enUS), ([1], "/v1/p", .enGB),
            ([1], "/v1/p|en-US|/v1/p", .enUS), ([1], "/v1/p?q=|", .enUS), ([1], "/v1/p?q=", .enUS), ([2], "/v1/p", .enUS),
        ]
        let keys = inputs.map { ListCacheKey.make(versions: $0.0, target: $0.1, locale: $0.2) }
        #expect(Set(keys).count == keys.count)
    }
}
